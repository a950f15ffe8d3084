/**
 * The suite of a mined candidate: a suite file written once as a Handlebars template and filled in
 * with the set's repositories, so `tandem bench validate` can run the candidates next.
 *
 * Template variables: `instance_id`; `repos` (a list of `{repo, owner, name}` in set order, for
 * `{{#each repos}}`); `repo1`, `repo2`… and `name1`, `name2`… for fixed positions.
 */

import { readFile } from 'node:fs/promises';
import Handlebars from 'handlebars';
import YAML from 'yaml';
import { errorText } from '../core/error-text.ts';
import { InputError } from '../core/errors.ts';
import { type Suite, suiteSchema } from '../core/suite.schema.ts';
import { inputErrorOf } from '../core/zod-issues.ts';

export type SuiteTemplate = (input: { instanceId: string; repos: readonly string[] }) => Suite;

export async function loadSuiteTemplate(file: string): Promise<SuiteTemplate> {
  const text = await readFile(file, 'utf8').catch((e: NodeJS.ErrnoException) => {
    throw new InputError(
      `--suite-template ${file}: ${e.code === 'ENOENT' ? 'no such file' : e.message}`,
      file,
    );
  });
  let render: HandlebarsTemplateDelegate;
  try {
    // `noEscape`: the output is YAML, not HTML.
    render = Handlebars.compile(text, { noEscape: true, strict: true });
  } catch (e) {
    throw new InputError(`--suite-template ${file}: ${errorText(e)}`, file);
  }
  return ({ instanceId, repos }) => {
    const parts = repos.map((repo) => ({ repo, owner: repo.split('/')[0], name: repo.split('/')[1] }));
    const vars: Record<string, unknown> = { instance_id: instanceId, repos: parts };
    parts.forEach((p, i) => {
      vars[`repo${i + 1}`] = p.repo;
      vars[`name${i + 1}`] = p.name;
    });
    let filled: unknown;
    try {
      filled = YAML.parse(render(vars));
    } catch (e) {
      throw new InputError(`--suite-template ${file} for ${instanceId}: ${errorText(e)}`, file);
    }
    const parsed = suiteSchema.safeParse(filled);
    if (!parsed.success) throw inputErrorOf(parsed.error, `--suite-template ${file}`, { file });
    return parsed.data;
  };
}
