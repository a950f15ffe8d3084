/**
 * `tandem init <repos...> --evaluator owner/name`: the starter files of an organization's setup,
 * one folder per repository they belong in (`<dir>/<owner>/<name>/…`): `.github/tandem.yml` for
 * the organization's `.github` repository; a suite skeleton with one hidden test per repository,
 * the evaluator workflow and its sandbox image for the evaluator repository. What it writes
 * passes `tandem config check` and loads as a suite.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Handlebars from 'handlebars';
import { z } from 'zod';
import { workspaceName } from '../../core/case.schema.ts';
import { InputError } from '../../core/errors.ts';
import { RepoSet, sameRepo, splitRepo } from '../../core/repo-name.ts';
import { loadTemplate } from '../../report/templates.ts';
import { parseFlags } from '../eval-options.ts';

/** src/cli/run and build/cli/run sit at the same depth under the package root. */
const EXAMPLES = fileURLToPath(new URL('../../../examples/workflows/', import.meta.url));

const repoName = z
  .string()
  .refine((r) => splitRepo(r) !== undefined, 'expected a repository like "owner/name"');
const flagsSchema = z.object({
  evaluator: repoName,
  dir: z.string().min(1),
  suite: z.string().regex(/^[A-Za-z0-9_.-]+$/, 'expected a name of letters, digits, "_", "." or "-"'),
  force: z.boolean().default(false),
});

const env = Handlebars.create();
env.registerHelper('join', (items: unknown[], sep: string) => (Array.isArray(items) ? items.join(sep) : ''));
const render = (name: string, data: object) =>
  env.compile(loadTemplate(path.join('init', name)), { noEscape: true, strict: true })(data);

export async function initCommand(repos: string[], raw: unknown): Promise<number> {
  const flags = parseFlags(flagsSchema, raw);
  repos.forEach((r, i) => {
    if (!splitRepo(r))
      throw new InputError(`argument repos[${i}]: expected a repository like "owner/name", got "${r}"`);
  });
  const orgs = new RepoSet(repos.map((r) => splitRepo(r)!.owner));
  if (orgs.size > 1)
    throw new InputError(`argument repos: one organization per setup, got ${[...orgs].join(', ')}`);
  const org = splitRepo(repos[0]!)!.owner;
  const evaluator = splitRepo(flags.evaluator)!;
  if (repos.some((r) => sameRepo(r, flags.evaluator)))
    throw new InputError(
      `option --evaluator: ${flags.evaluator} holds the hidden tests; it cannot be a covered repository`,
    );
  const names = repos.map(workspaceName);
  if (new Set(names).size !== names.length)
    throw new InputError(
      'argument repos: two repositories share a name; a suite needs distinct folder names',
    );

  const data = {
    org,
    evaluator: flags.evaluator,
    suite: flags.suite,
    repos,
    groups: repos.map((repo) => ({ repo: workspaceName(repo), name: workspaceName(repo) })),
  };
  const orgRepo = path.join(flags.dir, org, '.github');
  const evalRepo = path.join(flags.dir, evaluator.owner, evaluator.repo);
  const suiteDir = path.join(evalRepo, 'suites', flags.suite);
  const workflow = (await readFile(path.join(EXAMPLES, 'tandem.yml'), 'utf8')).replaceAll(
    'suites/checkout/suite.yml',
    `suites/${flags.suite}/suite.yml`,
  );
  const files: Array<[string, string]> = [
    [path.join(orgRepo, '.github', 'tandem.yml'), render('tandem.yml.hbs', data)],
    [path.join(suiteDir, 'suite.yml'), render('suite.yml.hbs', data)],
    ...data.groups.map((g): [string, string] => [
      path.join(suiteDir, 'hidden', `${g.name}.test.js`),
      render('hidden-test.js.hbs', g),
    ]),
    [path.join(evalRepo, '.github', 'workflows', 'tandem.yml'), workflow],
    [
      path.join(evalRepo, 'images', 'node20', 'Dockerfile'),
      await readFile(path.join(EXAMPLES, 'images', 'node20', 'Dockerfile'), 'utf8'),
    ],
  ];
  const existing = files.filter(([f]) => existsSync(f)).map(([f]) => f);
  if (existing.length > 0 && !flags.force)
    throw new InputError(`not overwriting ${existing.join(', ')} (pass --force to replace)`, existing[0]);
  for (const [file, text] of files) {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text);
  }
  process.stdout.write(
    [
      `wrote ${files.length} files:`,
      `  ${path.join(orgRepo, '.github', 'tandem.yml')}  → commit to ${org}/.github`,
      `  ${evalRepo}/{suites/${flags.suite}/, .github/workflows/tandem.yml, images/node20/}  → commit to ${flags.evaluator} (private)`,
      `next: write the hidden tests, then \`tandem config check ${path.join(orgRepo, '.github', 'tandem.yml')}\``,
      '',
    ].join('\n'),
  );
  return 0;
}
