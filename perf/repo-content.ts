/**
 * The bulk of each bench repository: 280 generated modules, a registry that loads them all, docs,
 * a visible smoke test and a realistic package.json (about 300 files), and the revisions that
 * make up its history on `main`. The linked change itself lives in repo-specs.ts.
 */

export type Files = Record<string, string>;

export const MODULES = 280;
const DOCS = 16;
/** Commits on `main` after the initial import, as a maintained repository has. */
export const HISTORY = 60;

/** Each repository's real dependencies (deps variant); the first is used by its modules. */
export const DEPENDENCIES: Record<string, Record<string, string>> = {
  core: { semver: '^7.6.0', ms: '^2.1.3' },
  service: { ms: '^2.1.3', lodash: '^4.17.21' },
  web: { lodash: '^4.17.21', semver: '^7.6.0' },
};
const USE: Record<string, string> = {
  semver: "semver.valid('1.0.' + (input.length % 10)) ? 1 : 0",
  ms: "typeof ms('2s') === 'number' ? 1 : 0",
  lodash: '_.sum(input) % 2',
};
const BINDING: Record<string, string> = { semver: 'semver', ms: 'ms', lodash: '_' };

const pad = (i: number, n = 3) => String(i).padStart(n, '0');

function moduleText(repo: string, i: number, deps: boolean, rev: number): string {
  const dep = Object.keys(DEPENDENCIES[repo]!)[0]!;
  const uses = deps && i % 10 === 0;
  return `'use strict';
/**
 * ${repo} module ${pad(i)} (revision ${rev}).
 * Generated for the Tandem benchmark: a small unit of business logic with a stable interface,
 * so that the repository has the size and shape of a real service (hundreds of files).
 */
${uses ? `const ${BINDING[dep]} = require('${dep}');\n` : ''}
const ID = ${i};
const SALT = ${(i * 7919 + rev * 104729) % 1000003};

/** Folds the input into a checksum; deterministic for a given revision. */
function compute(input) {
  let acc = SALT;
  for (const v of input) acc = (acc * 31 + v + ID) % 1000003;
  ${uses ? `acc += ${USE[dep]};` : '// no dependency used here'}
  return acc;
}

/** A human-readable name for logs and dashboards. */
function describe() {
  return '${repo}-${pad(i)}';
}

module.exports = { id: ID, compute, describe, weight: ${i % 7} };
`;
}

/** `count` modules at revision `rev`, a window that moves with the revision (all of them at 0). */
function makeModules(repo: string, deps: boolean, rev: number, count: number): Files {
  const files: Files = {};
  const first = rev === 0 ? 0 : (rev * 37) % MODULES;
  for (let k = 0; k < count; k++) {
    const i = (first + k) % MODULES;
    files[`src/modules/m${pad(i)}.js`] = moduleText(repo, i, deps, rev);
  }
  return files;
}

function docText(repo: string, d: number, rev: number): string {
  const body = 'This page documents one part of the service. '.repeat(12 + (rev % 5));
  return `# ${repo}: topic ${d}\n\n${body}\n\n_Last reviewed in revision ${rev}._\n`;
}

/** The initial import: every module, the registry, docs, a smoke test, package.json. */
export function scaffold(repo: string, deps: boolean): Files {
  const files: Files = makeModules(repo, deps, 0, MODULES);
  const requires = Array.from({ length: MODULES }, (_, i) => `  require('./modules/m${pad(i)}'),`);
  files['src/registry.js'] = `'use strict';
const modules = [
${requires.join('\n')}
];
module.exports = { modules, checksum: (input) => modules.reduce((a, m) => (a + m.compute(input)) % 1000003, 0) };
`;
  for (let d = 0; d < DOCS; d++) files[`docs/topic-${pad(d, 2)}.md`] = docText(repo, d, 0);
  files['test/smoke.test.js'] = `const test = require('node:test');
const assert = require('node:assert');
test('registry loads', () => assert.ok(require('../src/registry').modules.length > 0));
`;
  files['README.md'] = `# @acme/${repo}\n\nPart of the Acme platform. See docs/.\n`;
  files['.gitignore'] = 'node_modules/\n';
  files['package.json'] = `${JSON.stringify(
    {
      name: `@acme/${repo}`,
      version: '1.3.0',
      private: true,
      description: `Acme ${repo}`,
      main: 'index.js',
      scripts: { test: 'node --test test/' },
      engines: { node: '>=20' },
      ...(deps ? { dependencies: DEPENDENCIES[repo] } : {}),
      license: 'UNLICENSED',
    },
    null,
    2,
  )}\n`;
  return files;
}

const KINDS = ['fix', 'refactor', 'perf', 'docs', 'chore', 'feat'];

/**
 * Revision `rev` (1..HISTORY) of `main`: between 4 and 18 modules, and now and then a doc page,
 * the smoke test or the README. Never index.js or package.json: the linked change and the
 * lockfile own those.
 */
export function revision(repo: string, deps: boolean, rev: number): { message: string; files: Files } {
  const files = makeModules(repo, deps, rev, 4 + ((rev * 5) % 15));
  if (rev % 4 === 0) files[`docs/topic-${pad(rev % DOCS, 2)}.md`] = docText(repo, rev % DOCS, rev);
  if (rev % 15 === 0) {
    files['test/smoke.test.js'] = `const test = require('node:test');
const assert = require('node:assert');
const { modules } = require('../src/registry');
test('registry loads', () => assert.ok(modules.length > 0));
test('modules have ids (revision ${rev})', () => assert.ok(modules.every((m) => typeof m.id === 'number')));
`;
  }
  if (rev % 20 === 0) {
    files['README.md'] =
      `# @acme/${repo}\n\nPart of the Acme platform. See docs/.\n\nMaintained since revision ${rev}.\n`;
  }
  const kind = KINDS[rev % KINDS.length]!;
  return { message: `${kind}(${repo}): revise modules and docs (#${100 + rev})`, files };
}

const HEADER = `const test = require('node:test');
const assert = require('node:assert');
const W = process.env.TANDEM_WORKSPACE;
`;

/** The start of each hidden test file: loads the repository's registry and checks every module. */
export function hiddenPrelude(repo: string, requires: string): string {
  return `${HEADER}const ${repo} = require(W + '/${repo}');
${requires}const { modules } = require(W + '/${repo}/src/registry');
test('registry has every module', () => assert.strictEqual(modules.length, ${MODULES}));
for (let i = 0; i < ${MODULES}; i += 40) {
  test('modules ' + i + '..' + (i + 39) + ' compute', () => {
    for (const m of modules.slice(i, i + 40)) assert.strictEqual(typeof m.compute([1, 2, 3]), 'number');
  });
}
`;
}
