/**
 * report.json on disk: validated on the way out (a bug must not publish a malformed report) and
 * on the way in (`tandem merge`, the Action's artifact), with errors that name file and field.
 */

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { errorText } from '../core/error-text.ts';
import { InputError } from '../core/errors.ts';
import { REPORT_SCHEMA_VERSION, type Report, reportSchema } from '../core/report.schema.ts';
import { inputErrorOf, validate } from '../core/zod-issues.ts';

/** The report as pretty JSON, validated first (a bug must not publish a malformed report). */
export function jsonReportText(report: Report, where = 'report'): string {
  const parsed = reportSchema.safeParse(report);
  if (!parsed.success) {
    const e = inputErrorOf(parsed.error, where, { file: where });
    throw new Error(`refusing to write an invalid report: ${e.message}`);
  }
  return `${JSON.stringify(parsed.data, null, 2)}\n`;
}

/** Validates, then writes pretty JSON (creating the folder). Throws InputError naming the field. */
export function writeJsonReport(path: string, report: Report): void {
  const text = jsonReportText(report, path);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** Reads and validates a report; InputError names the file and the first bad field. */
export function readJsonReport(path: string): Report {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new InputError(`${path}: cannot read the report: ${errorText(err)}`, path);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new InputError(`${path}: not valid JSON: ${errorText(err)}`, path);
  }
  const version = (data as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (version !== undefined && version !== REPORT_SCHEMA_VERSION) {
    throw new InputError(
      `${path}: schemaVersion ${JSON.stringify(version)} is not supported (this Tandem reads ${REPORT_SCHEMA_VERSION})`,
      path,
      'schemaVersion',
    );
  }
  return validate(reportSchema, data, path);
}
