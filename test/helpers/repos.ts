/** The repositories the grading, merge and report tests build their changes from. */
export const API = 'acme/api';
export const WEB = 'acme/web';
export const CLI = 'acme/cli';
