/**
 * A check run's output as Tandem writes it (GitHub's `output` object, the fields Tandem sets):
 * report/ renders it, github/check-runs.ts fits it to GitHub's limits and sends it, the App
 * passes it between the two.
 */
export interface CheckRunOutput {
  /** One line; GitHub cuts it at 255 characters (core/github-limits.ts). */
  title: string;
  /** Markdown, at most 65,535 bytes. */
  summary: string;
  /** Markdown details, at most 65,535 bytes; absent when the summary says it all. */
  text?: string;
}
