/**
 * The embedded example: a small organization of three repositories — `acme/schema` (a price
 * formatter), `acme/api` (uses schema) and `acme/web` (uses api) — with one linked change
 * ("prices in several currencies") split across three branches, plus an evaluator-owned suite
 * with hidden tests. Every PR is needed: only the three together pass.
 *
 *   tsx examples/checkout/generate.ts <out-dir>   → prints the case file path
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

type Files = Record<string, string>;

const ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Acme Dev',
  GIT_AUTHOR_EMAIL: 'dev@acme.example',
  GIT_COMMITTER_NAME: 'Acme Dev',
  GIT_COMMITTER_EMAIL: 'dev@acme.example',
  GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z',
  GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z',
};

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'init.defaultBranch=main', ...args], {
    cwd,
    env: ENV,
    encoding: 'utf8',
  }).trim();
}

export function write(dir: string, files: Files): void {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
}

/** A bare "remote" with `main` and one feature branch; returns its path. */
export function makeRepo(root: string, name: string, base: Files, feature: Files, branch: string): string {
  const remote = path.join(root, 'remotes', `${name}.git`);
  const work = mkdtempSync(path.join(os.tmpdir(), `tandem-example-${name}-`));
  try {
    mkdirSync(remote, { recursive: true });
    git(remote, 'init', '--bare', '--quiet');
    git(work, 'init', '--quiet');
    write(work, base);
    git(work, 'add', '-A');
    git(work, 'commit', '--quiet', '-m', `${name}: initial`);
    git(work, 'push', '--quiet', remote, 'HEAD:refs/heads/main');
    git(work, 'checkout', '--quiet', '-b', branch);
    write(work, feature);
    git(work, 'add', '-A');
    git(work, 'commit', '--quiet', '-m', `${name}: ${branch}`);
    git(work, 'push', '--quiet', remote, `HEAD:refs/heads/${branch}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return remote;
}

const BRANCH = 'multi-currency';

export const SCHEMA_BASE: Files = {
  'package.json': '{ "name": "@acme/schema", "version": "1.0.0", "main": "index.js" }\n',
  'index.js': `'use strict';
/** Formats a price in cents as dollars. */
function formatPrice(cents) {
  return '$' + (cents / 100).toFixed(2);
}
module.exports = { formatPrice };
`,
};
export const SCHEMA_HEAD: Files = {
  'index.js': `'use strict';
const SYMBOLS = { USD: '$', EUR: '€', GBP: '£' };
/** Formats a price in cents in the given currency (USD by default). */
function formatPrice(cents, currency = 'USD') {
  const symbol = SYMBOLS[currency];
  if (!symbol) throw new Error('unknown currency ' + currency);
  return symbol + (cents / 100).toFixed(2);
}
module.exports = { formatPrice, CURRENCIES: Object.keys(SYMBOLS) };
`,
};
export const API_BASE: Files = {
  'package.json': '{ "name": "@acme/api", "version": "1.0.0", "main": "index.js" }\n',
  'index.js': `'use strict';
const { formatPrice } = require('../schema');
/** The label shown next to an item. */
function priceLabel(item) {
  return formatPrice(item.cents);
}
module.exports = { priceLabel };
`,
};
export const API_HEAD: Files = {
  'index.js': `'use strict';
const { formatPrice } = require('../schema');
/** The label shown next to an item, in the item's currency. */
function priceLabel(item) {
  return formatPrice(item.cents, item.currency);
}
module.exports = { priceLabel };
`,
};
export const WEB_BASE: Files = {
  'package.json': '{ "name": "@acme/web", "version": "1.0.0", "main": "index.js" }\n',
  'index.js': `'use strict';
const { priceLabel } = require('../api');
function render(item) {
  return '<span class="price">' + priceLabel(item) + '</span>';
}
module.exports = { render };
`,
};
export const WEB_HEAD: Files = {
  'index.js': `'use strict';
const { priceLabel } = require('../api');
function render(item) {
  const currency = item.currency || 'USD';
  return '<span class="price" data-currency="' + currency + '">' + priceLabel(item) + '</span>';
}
module.exports = { render };
`,
};

const HIDDEN: Files = {
  'hidden/schema.test.js': `const test = require('node:test');
const assert = require('node:assert');
const { formatPrice } = require(process.env.TANDEM_WORKSPACE + '/schema');
test('formats dollars', () => assert.strictEqual(formatPrice(150), '$1.50'));
test('formats euros', () => assert.strictEqual(formatPrice(150, 'EUR'), '€1.50'));
`,
  'hidden/api.test.js': `const test = require('node:test');
const assert = require('node:assert');
const { priceLabel } = require(process.env.TANDEM_WORKSPACE + '/api');
test('labels a dollar item', () => assert.strictEqual(priceLabel({ cents: 250 }), '$2.50'));
test('labels a euro item', () => assert.strictEqual(priceLabel({ cents: 250, currency: 'EUR' }), '€2.50'));
`,
  'hidden/web.test.js': `const test = require('node:test');
const assert = require('node:assert');
const { render } = require(process.env.TANDEM_WORKSPACE + '/web');
test('renders a price', () => assert.match(render({ cents: 99 }), /\\$0\\.99/));
test('renders the currency', () => {
  const html = render({ cents: 99, currency: 'GBP' });
  assert.match(html, /data-currency="GBP"/);
  assert.match(html, /£0\\.99/);
});
`,
};

function group(name: string): string {
  return `  - name: ${name}
    repo: acme/${name}
    files: [hidden/${name}.test.js]
    run: node --test --test-reporter=junit --test-reporter-destination=$TANDEM_RESULTS/${name}.xml $TANDEM_HIDDEN/${name}.test.js
    results: { format: junit, path: ${name}.xml }
    timeout: 60
`;
}

export const SUITE_YAML = `# Evaluator-owned: the hidden tests never enter a repository checkout.
name: checkout-currencies
image: tandem/sandbox:node20
limits: { memory: 256m, cpus: 1, pids: 256, configuration_timeout: 300 }
tests:
${group('schema')}${group('api')}${group('web')}merge_order: [acme/schema, acme/api, acme/web]
`;

/** Writes the organization, the suite and the case; returns the case file's path. */
export function generateExample(out: string): string {
  mkdirSync(out, { recursive: true });
  const schema = makeRepo(out, 'schema', SCHEMA_BASE, SCHEMA_HEAD, BRANCH);
  const api = makeRepo(out, 'api', API_BASE, API_HEAD, BRANCH);
  const web = makeRepo(out, 'web', WEB_BASE, WEB_HEAD, BRANCH);
  write(path.join(out, 'evaluator'), { ...HIDDEN, 'suite.yml': SUITE_YAML });
  const target = (repo: string, url: string) =>
    `  - { repo: acme/${repo}, url: ${url}, base: main, head: ${BRANCH} }\n`;
  const caseYaml = `name: acme-multi-currency
suite: evaluator/suite.yml
targets:
${target('schema', schema)}${target('api', api)}${target('web', web)}`;
  const caseFile = path.join(out, 'case.yml');
  writeFileSync(caseFile, caseYaml);
  return caseFile;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = process.argv[2] ?? mkdtempSync(path.join(os.tmpdir(), 'tandem-example-'));
  process.stdout.write(`${generateExample(path.resolve(out))}\n`);
}
