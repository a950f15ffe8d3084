/**
 * `tandem config check FILE [--evaluator-dir DIR] [--strict]`: the organization's `tandem.yml`
 * read exactly as the App reads it (the same schema, the same message naming the field), then
 * the settings the App accepts but that cannot work (core/org-config-warnings.ts), and with
 * `--evaluator-dir` the files it names (config-evaluator.ts). Exit 2 on an error, or on a
 * warning under `--strict`; each line names the file and field.
 */

import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { z } from 'zod';
import { errorText } from '../../core/error-text.ts';
import { InputError } from '../../core/errors.ts';
import { noSuchFile } from '../../core/file-errors.ts';
import { validateOrgConfig } from '../../core/org-config.schema.ts';
import { orgConfigWarnings } from '../../core/org-config-warnings.ts';
import { parseFlags } from '../eval-options.ts';
import { EXIT } from '../exit-codes.ts';
import { checkEvaluatorDir, type Finding } from './config-evaluator.ts';

const flagsSchema = z.object({
  evaluatorDir: z.string().min(1).optional(),
  strict: z.boolean().default(false),
});

export async function configCheckCommand(file: string, raw: unknown = {}): Promise<number> {
  const flags = parseFlags(flagsSchema, raw);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw new InputError(noSuchFile(file, e), file);
  }
  let doc: unknown;
  try {
    doc = parse(text, { prettyErrors: true });
  } catch (e) {
    throw new InputError(`${file}: not valid YAML: ${errorText(e)}`, file);
  }
  const result = validateOrgConfig(doc);
  if (!result.ok)
    throw new InputError(`${file}: field "${result.field}": ${result.message}`, file, result.field);
  const { config } = result;
  const findings: Finding[] = [
    ...orgConfigWarnings(config, doc).map(
      (w): Finding => ({
        level: 'warning',
        text: `${file}: field "${w.field}": ${w.message}`,
      }),
    ),
    ...(flags.evaluatorDir ? await checkEvaluatorDir(config, file, flags.evaluatorDir) : []),
  ];
  for (const f of findings)
    process.stderr.write(`tandem: ${f.level === 'warning' ? 'warning: ' : ''}${f.text}\n`);
  const errors = findings.filter((f) => f.level === 'error').length;
  const warnings = findings.length - errors;
  if (errors > 0 || (flags.strict && warnings > 0)) {
    process.stderr.write(
      `tandem: ${file}: ${errors} error(s), ${warnings} warning(s)${errors === 0 ? ' (--strict)' : ''}\n`,
    );
    return EXIT.badInput;
  }
  const repos = config.suites.reduce((n, s) => n + s.repos.length, 0);
  const checked = flags.evaluatorDir
    ? `; suite files, hidden files and images checked in ${flags.evaluatorDir}`
    : '';
  const warned = warnings ? ` (${warnings} warning(s))` : '';
  process.stdout.write(
    `${file}: valid${warned} — evaluator ${config.evaluator}, ${config.suites.length} suite(s) covering ${repos} repositories, executor ${config.executor}, matrix ${config.matrix}, reveal ${config.reveal}${checked}\n`,
  );
  return 0;
}
