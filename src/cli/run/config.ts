/**
 * `tandem config check FILE`: the organization's `tandem.yml` read exactly as the App reads it
 * (the same schema, the same message naming the field), so a mistake is found before the push.
 */

import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { errorCodeOrText, errorText } from '../../core/error-text.ts';
import { InputError } from '../../core/errors.ts';
import { validateOrgConfig } from '../../core/org-config.schema.ts';

export async function configCheckCommand(file: string): Promise<number> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw new InputError(`cannot read ${file}: ${errorCodeOrText(e)}`, file);
  }
  let raw: unknown;
  try {
    raw = parse(text, { prettyErrors: true });
  } catch (e) {
    throw new InputError(`${file}: not valid YAML: ${errorText(e)}`, file);
  }
  const result = validateOrgConfig(raw);
  if (!result.ok)
    throw new InputError(`${file}: field "${result.field}": ${result.message}`, file, result.field);
  const { config } = result;
  const repos = config.suites.reduce((n, s) => n + s.repos.length, 0);
  process.stdout.write(
    `${file}: valid — evaluator ${config.evaluator}, ${config.suites.length} suite(s) covering ${repos} repositories, executor ${config.executor}, matrix ${config.matrix}, reveal ${config.reveal}\n`,
  );
  return 0;
}
