/**
 * report.json on disk: validated on the way out (a bug must not publish a malformed report) and
 * on the way in (`tandem merge`, the Action's artifact), with errors that name file and field.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { z } from 'zod';
import { formatFieldPath, InputError } from '../core/errors.ts';
import { REPORT_SCHEMA_VERSION, type Report, reportSchema } from '../core/report.schema.ts';

function describe(file: string, error: z.ZodError): InputError {
  const issue = error.issues[0]!;
  const field = formatFieldPath(issue.path);
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more problems)` : '';
  return new InputError(`${file}: ${field}: ${issue.message}${more}`, file, field);
}

/** Validates, then writes pretty JSON (creating the folder). Throws InputError naming the field. */
export function writeJsonReport(path: string, report: Report): void {
  const parsed = reportSchema.safeParse(report);
  if (!parsed.success) {
    const e = describe(path, parsed.error);
    throw new Error(`refusing to write an invalid report: ${e.message}`);
  }
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(parsed.data, null, 2)}\n`);
}

/** Reads and validates a report; InputError names the file and the first bad field. */
export function readJsonReport(path: string): Report {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new InputError(`${path}: cannot read the report: ${(err as Error).message}`, path);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new InputError(`${path}: not valid JSON: ${(err as Error).message}`, path);
  }
  const version = (data as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (version !== undefined && version !== REPORT_SCHEMA_VERSION) {
    throw new InputError(
      `${path}: schemaVersion ${JSON.stringify(version)} is not supported (this Tandem reads ${REPORT_SCHEMA_VERSION})`,
      path,
      'schemaVersion',
    );
  }
  const parsed = reportSchema.safeParse(data);
  if (!parsed.success) throw describe(path, parsed.error);
  return parsed.data;
}
