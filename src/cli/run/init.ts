/**
 * `tandem init <repos...> --evaluator owner/name [--checkouts DIR]`: the starter files of an
 * organization's setup, one folder per repository they belong in (`<dir>/<owner>/<name>/…`):
 * `.github/tandem.yml` for the organization's `.github` repository; for the evaluator
 * repository a suite that prepares and tests each repository the way its checkout's toolchain
 * needs (init-detect.ts), one hidden test per repository, the workflow, its sandbox image and the
 * vendored Action; and beside them a case file that tries the suite on the local checkouts. What
 * it writes passes `tandem config check` and loads as a suite.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Handlebars from 'handlebars';
import { z } from 'zod';
import { workspaceName } from '../../core/case.schema.ts';
import { imageFor, type Language, starterTest } from '../../core/ecosystem.ts';
import { InputError } from '../../core/errors.ts';
import { RepoSet, sameRepo, splitRepo } from '../../core/repo-name.ts';
import { loadTemplate } from '../../report/templates.ts';
import { parseFlags } from '../eval-options.ts';
import { vendoredActionFiles } from './action-files.ts';
import { detectionLine, detectRepo } from './init-detect.ts';

/** src/cli/run and build/cli/run sit at the same depth under the package root. */
const EXAMPLES = fileURLToPath(new URL('../../../examples/workflows/', import.meta.url));

const repoName = z
  .string()
  .refine((r) => splitRepo(r) !== undefined, 'expected a repository like "owner/name"');
const flagsSchema = z.object({
  evaluator: repoName,
  dir: z.string().min(1),
  suite: z.string().regex(/^[A-Za-z0-9_.-]+$/, 'expected a name of letters, digits, "_", "." or "-"'),
  checkouts: z.string().min(1).default('.'),
  force: z.boolean().default(false),
});

const env = Handlebars.create();
env.registerHelper('join', (items: unknown[], sep: string) => (Array.isArray(items) ? items.join(sep) : ''));
// A JSON string is a YAML double-quoted scalar: commands with `$`, `&&` or `;` stay one string.
env.registerHelper('json', (value: unknown) => JSON.stringify(value));
const render = (name: string, data: object) =>
  env.compile(loadTemplate(path.join('init', name)), { noEscape: true, strict: true })(data);

const HIDDEN_TEMPLATE: Record<Language, string> = {
  node: 'hidden-test.js.hbs',
  python: 'hidden-test.py.hbs',
  go: 'hidden-test.go.hbs',
};
/** What the workflow's image needs beyond Node, by the suite's image. */
const IMAGE_BUILD: Record<string, { folder: string; language: string; packages: string; env?: string }> = {
  'tandem/sandbox:python3': {
    folder: 'python3',
    language: 'Python',
    packages: 'python3 python3-pip python3-pytest',
    env: 'PIP_BREAK_SYSTEM_PACKAGES=1',
  },
  'tandem/sandbox:go': { folder: 'go', language: 'Go', packages: 'golang-go', env: 'CGO_ENABLED=0' },
};

function checkArguments(repos: string[], flags: z.output<typeof flagsSchema>): string {
  repos.forEach((r, i) => {
    if (!splitRepo(r))
      throw new InputError(`argument repos[${i}]: expected a repository like "owner/name", got "${r}"`);
  });
  const orgs = new RepoSet(repos.map((r) => splitRepo(r)!.owner));
  if (orgs.size > 1)
    throw new InputError(`argument repos: one organization per setup, got ${[...orgs].join(', ')}`);
  if (repos.some((r) => sameRepo(r, flags.evaluator)))
    throw new InputError(
      `option --evaluator: ${flags.evaluator} holds the hidden tests; it cannot be a covered repository`,
    );
  const names = repos.map(workspaceName);
  if (new Set(names).size !== names.length)
    throw new InputError(
      'argument repos: two repositories share a name; a suite needs distinct folder names',
    );
  return splitRepo(repos[0]!)!.owner;
}

type Flags = z.output<typeof flagsSchema>;
type Detection = Awaited<ReturnType<typeof detectRepo>>;
type Files = Array<[string, string | Buffer]>;

/** Where the setup's folders go: the organization's `.github`, the evaluator, the suite. */
interface Layout {
  orgRepo: string;
  evalRepo: string;
  suiteDir: string;
  caseName: string;
}

export async function initCommand(repos: string[], raw: unknown): Promise<number> {
  const flags = parseFlags(flagsSchema, raw);
  const org = checkArguments(repos, flags);
  const evaluator = splitRepo(flags.evaluator)!;
  const detections = await Promise.all(repos.map((r) => detectRepo(r, flags.checkouts)));
  const data = setupData(org, repos, flags, detections);
  const evalRepo = path.join(flags.dir, evaluator.owner, evaluator.repo);
  const layout: Layout = {
    orgRepo: path.join(flags.dir, org, '.github'),
    evalRepo,
    suiteDir: path.join(evalRepo, 'suites', flags.suite),
    caseName: path.join(flags.dir, `try-${flags.suite}.yml`),
  };
  const files = await setupFiles(layout, flags, data, detections);
  await writeSetup(files, flags.force);
  process.stdout.write(closingLines({ layout, flags, org, repos, data, detections, count: files.length }));
  return 0;
}

/**
 * What the templates are rendered with: each repository's ecosystem as detected (Node when
 * nothing was), one image for the suite, one group and starter test per repository.
 */
export function setupData(org: string, repos: string[], flags: Flags, detections: readonly Detection[]) {
  const languages = detections.map(
    (d): Language => (d.detection.ok ? d.detection.ecosystem.language : 'node'),
  );
  const { image, conflict } = imageFor(new Set(languages));
  const groups = detections.map((d, i) => ({
    repo: d.repo,
    name: d.name,
    ident: d.name.replace(/[^A-Za-z0-9_]/g, '_'),
    language: languages[i]!,
    test: starterTest(languages[i]!, d.name),
    ...(d.detection.ok
      ? { prepare: d.detection.ecosystem.prepare, evidence: d.detection.ecosystem.evidence }
      : {}),
  }));
  return {
    org,
    evaluator: flags.evaluator,
    suite: flags.suite,
    repos,
    groups,
    anyPrepare: groups.some((g) => g.prepare !== undefined),
    image,
    imageNote: conflict,
  };
}

type SetupData = ReturnType<typeof setupData>;

/** Every file of the setup with its content, rendered from templates/init and the examples. */
async function setupFiles(
  layout: Layout,
  flags: Flags,
  data: SetupData,
  detections: readonly Detection[],
): Promise<Files> {
  const { orgRepo, evalRepo, suiteDir, caseName } = layout;
  const build = IMAGE_BUILD[data.image];
  const imageFolder = build?.folder ?? 'node20';
  const workflow = (await readFile(path.join(EXAMPLES, 'tandem.yml'), 'utf8'))
    .replaceAll('suites/checkout/suite.yml', `suites/${flags.suite}/suite.yml`)
    .replace(
      'docker build -t tandem/sandbox:node20 images/node20',
      `docker build -t ${data.image} images/${imageFolder}`,
    );
  return [
    [path.join(orgRepo, '.github', 'tandem.yml'), render('tandem.yml.hbs', data)],
    [path.join(suiteDir, 'suite.yml'), render('suite.yml.hbs', data)],
    ...data.groups.map((g): [string, string] => [
      path.join(suiteDir, g.test.file),
      render(HIDDEN_TEMPLATE[g.language], g),
    ]),
    [path.join(evalRepo, '.github', 'workflows', 'tandem.yml'), workflow],
    [
      path.join(evalRepo, 'images', imageFolder, 'Dockerfile'),
      build
        ? render('Dockerfile.hbs', { ...build, suite: flags.suite, image: data.image })
        : await readFile(path.join(EXAMPLES, 'images', 'node20', 'Dockerfile'), 'utf8'),
    ],
    // The Action the workflow's `uses: ./.github/actions/tandem` runs.
    ...(await vendoredActionFiles()).map(([rel, d]): [string, Buffer] => [path.join(evalRepo, rel), d]),
    [
      caseName,
      render('try-case.yml.hbs', {
        suite: flags.suite,
        caseName,
        suitePath: path.relative(flags.dir, path.join(suiteDir, 'suite.yml')),
        targets: detections.map((d) => ({
          repo: d.repo,
          url: d.checkout ?? `https://github.com/${d.repo}.git`,
          base: d.base,
          head: d.head,
        })),
      }),
    ],
  ];
}

/** Writes the files; refuses to overwrite any (naming them) unless `force`. */
async function writeSetup(files: Files, force: boolean): Promise<void> {
  const existing = files.filter(([f]) => existsSync(f)).map(([f]) => f);
  if (existing.length > 0 && !force)
    throw new InputError(
      `not overwriting ${existing.slice(0, 5).join(', ')}${existing.length > 5 ? ` and ${existing.length - 5} more` : ''} (pass --force to replace)`,
      existing[0],
    );
  for (const [file, text] of files) {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text);
  }
}

/** What was detected, what was written where, and the remaining steps. */
export function closingLines(o: {
  layout: Layout;
  flags: Flags;
  org: string;
  repos: readonly string[];
  data: SetupData;
  detections: readonly Detection[];
  count: number;
}): string {
  const { orgRepo, evalRepo, suiteDir, caseName } = o.layout;
  const { flags, org } = o;
  const imageFolder = IMAGE_BUILD[o.data.image]?.folder ?? 'node20';
  return [
    'detected:',
    ...o.detections.map((d) => detectionLine(d, flags.checkouts)),
    ...(o.data.imageNote ? [`  image: ${o.data.imageNote}`] : []),
    `wrote ${o.count} files:`,
    `  ${path.join(orgRepo, '.github', 'tandem.yml')}  → commit to ${org}/.github`,
    `  ${evalRepo}/{suites/${flags.suite}/, .github/, images/${imageFolder}/}  → commit to ${flags.evaluator} (private)`,
    `  ${caseName}  → keep local: tries the suite on your checkouts`,
    'next:',
    `  1. write the hidden tests in ${suiteDir}/hidden/, then \`tandem eval ${caseName}\``,
    `  2. \`tandem config check ${path.join(orgRepo, '.github', 'tandem.yml')} --evaluator-dir ${evalRepo}\``,
    `  3. install the Tandem App on ${o.repos.join(', ')}, ${flags.evaluator} and ${org}/.github`,
    `  4. in ${flags.evaluator}: variable TANDEM_APP_ID and secret TANDEM_APP_PRIVATE_KEY (the App's id and private key) for the workflow`,
    '',
  ].join('\n');
}
