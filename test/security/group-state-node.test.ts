/**
 * Attack on what test groups share (issue 25, item 2), Node, with real Docker and git: the PR's
 * module, loaded by its own group, leaves a `~/.npmrc` whose `node-options` preloads its script
 * into every process a later `npm test` starts, and rewrites the trusted context repository
 * `lib` that a later isolated checker loads. Both checkers fail honestly and must stay failed;
 * a group that declares `isolate: false` still sees what an earlier group wrote.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/report.schema.ts';
import { dockerSuite } from '../helpers/docker-suite.ts';
import { SANDBOX_IMAGE, shellCase, shellGroup, tapScript } from '../helpers/example-cases.ts';
import { byGroup } from './attack-kit.ts';

const docker = dockerSuite('sec-group-state-node');

/** Preloaded into the checker: a passing TAP file, then exit 0 before the checker runs. */
const FORGE = `const r = process.env.TANDEM_RESULTS, t = process.env.FORGE_TARGET;
if (r && t) { require('node:fs').writeFileSync(r + '/' + t, 'TAP version 13\\n1..1\\nok 1 - expectation met\\n'); process.exit(0); }
`;

/** The PR's module: requiring it plants the hooks (refusals ignored) and answers as before. */
const PLANT = `const fs = require('node:fs'), os = require('node:os'), path = require('node:path');
const plant = (file, text) => { try { fs.writeFileSync(file, text); } catch {} };
const home = os.homedir();
plant(path.join(home, 'forge.js'), ${JSON.stringify(FORGE)});
plant(path.join(home, '.npmrc'), 'node-options=--require=' + path.join(home, 'forge.js') + '\\nupdate-notifier=false\\n');
plant(path.join(process.env.TANDEM_WORKSPACE, 'lib', 'index.js'), 'module.exports = { version: () => 2 };\\n');
module.exports = { answer: () => 42 };
`;

/** A hidden Node script writing one TAP test to $TANDEM_RESULTS/<file>. */
const tapJs = (file: string, name: string, ok: string) =>
  `const ok = (() => { try { return Boolean(${ok}); } catch { return false; } })();
require('node:fs').writeFileSync(process.env.TANDEM_RESULTS + '/${file}', 'TAP version 13\\n1..1\\n' + (ok ? '' : 'not ') + 'ok 1 - ${name}\\n');
`;

describe('attack: a group plants Node hooks and rewrites a repository for later checker groups', () => {
  let report: Report;

  beforeAll(async () => {
    const c = await shellCase({
      name: 'node-group-state',
      repos: [
        { name: 'lib', base: { 'index.js': 'module.exports = { version: () => 1 };\n' } },
        {
          name: 'app',
          base: { 'index.js': 'module.exports = { answer: () => 42 };\n' },
          head: { 'index.js': PLANT },
        },
      ],
      suite: {
        name: 'node-group-state-suite',
        image: SANDBOX_IMAGE,
        tests: [
          {
            name: 'app',
            repo: 'acme/app',
            files: ['hidden/app-test.js'],
            run: 'node $TANDEM_HIDDEN/app-test.js',
            results: { format: 'tap', path: 'app.tap' },
          },
          // Declared sharing: sees what the app group wrote.
          { ...shellGroup('shared'), isolate: false },
          {
            // Only a hook under $HOME reaches it: the check is the hidden files' own.
            name: 'npm-check',
            files: ['hidden/checker'],
            run: 'FORGE_TARGET=npm.tap npm --prefix "$TANDEM_HIDDEN/checker" --offline test',
            results: { format: 'tap', path: 'npm.tap' },
          },
          {
            // Isolated (it names no repository): loads the context repository lib, nothing else.
            name: 'lib-check',
            files: ['hidden/lib-check.js'],
            run: 'node $TANDEM_HIDDEN/lib-check.js',
            results: { format: 'tap', path: 'lib.tap' },
          },
        ],
      },
      hidden: {
        'hidden/app-test.js': `require('node:fs').writeFileSync(process.env.TANDEM_WORKSPACE + '/app/out.txt', 'from app\\n');
${tapJs('app.tap', 'answers', "require(process.env.TANDEM_WORKSPACE + '/app').answer() === 42")}`,
        'hidden/shared.sh': tapScript('shared.tap', [
          { name: 'sees the app group output', cmd: 'grep -q "from app" app/out.txt' },
        ]),
        'hidden/checker/package.json':
          '{ "name": "checker", "private": true, "scripts": { "test": "node check.js" } }\n',
        'hidden/checker/check.js': tapJs('npm.tap', 'expectation met', "require('./expected.json').met"),
        'hidden/checker/expected.json': '{ "met": false }\n',
        'hidden/lib-check.js': tapJs(
          'lib.tap',
          'lib is at version 2',
          "require(process.env.TANDEM_WORKSPACE + '/lib').version() === 2",
        ),
      },
    });
    docker.track(c.root);
    report = await docker.evaluate(c.input);
  }, 600_000);

  it("keeps the checkers' honest failures in every configuration; declared sharing still works", () => {
    expect(report.infraErrors).toEqual([]);
    for (const id of ['base', 'full']) {
      expect(byGroup(report, id)).toEqual([
        ['app', 'answers', 'passed'],
        ['lib-check', 'lib is at version 2', 'failed'],
        ['npm-check', 'expectation met', 'failed'],
        ['shared', 'sees the app group output', 'passed'],
      ]);
    }
  });
});
