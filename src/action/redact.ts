/**
 * Keeps credentials out of what leaves the step: the report artifact, the summary and outputs.
 * Clone URLs built from `pull-requests` carry the token (`x-access-token:<token>@host`); the
 * engine copies them into the report (`targets[].url`) and into git error messages.
 */
import type { Report } from '../core/report.schema.ts';

const URL_CREDENTIALS = /(\/\/)[^/@\s:]+:[^/@\s]+@/g;

export function redactText(text: string, secrets: readonly string[]): string {
  let out = text.replace(URL_CREDENTIALS, '$1');
  for (const s of secrets) if (s.length >= 4) out = out.replaceAll(s, '***');
  return out;
}

/** The report with every string cleaned (the JSON round trip keeps the shape). */
export function redactReport(report: Report, secrets: readonly string[]): Report {
  return JSON.parse(JSON.stringify(report), (_key, value: unknown) =>
    typeof value === 'string' ? redactText(value, secrets) : value,
  ) as Report;
}
