/**
 * The linked change the bench judges ("version ranges"): `core` gains `satisfiesRange`, `service`
 * uses it in `releaseSummary`, `web` renders the summary. Each head needs the one below it, so
 * only the three together pass the hidden tests. With `deps`, the code and the tests use the
 * repositories' real npm packages.
 */
import { type Files, hiddenPrelude, scaffold } from './repo-content.ts';

export interface RepoSpec {
  name: string;
  /** index.js on `main`, next to the scaffold. */
  index(deps: boolean): string;
  /** index.js on the feature branch. */
  headIndex(deps: boolean): string;
  hiddenTest(deps: boolean): string;
}

/** The initial import of a repository: scaffold plus its index.js. */
export function baseFiles(spec: RepoSpec, deps: boolean): Files {
  return { ...scaffold(spec.name, deps), 'index.js': spec.index(deps) };
}

const CORE: RepoSpec = {
  name: 'core',
  index: (deps) => `'use strict';
${deps ? "const semver = require('semver');\n" : ''}const registry = require('./src/registry');
function parseVersion(v) {
  const [major, minor, patch] = v.split('.').map(Number);
  return { major, minor, patch };
}
function compareVersions(a, b) {
${deps ? '  return semver.compare(a, b);' : "  const x = parseVersion(a), y = parseVersion(b);\n  for (const k of ['major', 'minor', 'patch']) if (x[k] !== y[k]) return x[k] < y[k] ? -1 : 1;\n  return 0;"}
}
module.exports = { registry, parseVersion, compareVersions };
`,
  headIndex: (
    deps,
  ) => `${CORE.index(deps).replace('module.exports = { registry, parseVersion, compareVersions };', '')}/** Does the version satisfy a range ("^1.2.0", ">=1.0.0")? */
function satisfiesRange(version, range) {
${deps ? '  return semver.satisfies(version, range);' : "  if (range.startsWith('>=')) return compareVersions(version, range.slice(2)) >= 0;\n  const min = range.replace(/^\\^/, '');\n  return parseVersion(version).major === parseVersion(min).major && compareVersions(version, min) >= 0;"}
}
module.exports = { registry, parseVersion, compareVersions, satisfiesRange };
`,
  hiddenTest: (
    deps,
  ) => `${hiddenPrelude('core', deps ? "const semver = require(W + '/core/node_modules/semver');\n" : '')}
test('compares versions', () => assert.strictEqual(core.compareVersions('1.2.3', '1.10.0'), -1));
test('satisfies ranges', () => {
  assert.strictEqual(core.satisfiesRange('1.4.0', '^1.2.0'), true);
  assert.strictEqual(core.satisfiesRange('2.0.0', '^1.2.0'), false);
${deps ? "  for (const v of ['1.2.0', '1.9.9', '2.0.0', '0.9.0']) assert.strictEqual(core.satisfiesRange(v, '^1.2.0'), semver.satisfies(v, '^1.2.0'));\n" : ''}});
`,
};

const SERVICE: RepoSpec = {
  name: 'service',
  index: (deps) => `'use strict';
${deps ? "const ms = require('ms');\n" : ''}const core = require('../core');
function describeRelease(r) {
  return r.name + '@' + r.version;
}
function timeoutLabel(millis) {
${deps ? '  return ms(millis);' : "  return millis % 60000 === 0 ? millis / 60000 + 'm' : Math.round(millis / 1000) + 's';"}
}
module.exports = { core, describeRelease, timeoutLabel };
`,
  headIndex: (
    deps,
  ) => `${SERVICE.index(deps).replace('module.exports = { core, describeRelease, timeoutLabel };', '')}function releaseSummary(r, range) {
  const ok = core.satisfiesRange(r.version, range);
  return describeRelease(r) + (ok ? ' compatible' : ' incompatible') + ' (timeout ' + timeoutLabel(r.timeoutMs) + ')';
}
module.exports = { core, describeRelease, timeoutLabel, releaseSummary };
`,
  hiddenTest: (
    deps,
  ) => `${hiddenPrelude('service', deps ? "const ms = require(W + '/service/node_modules/ms');\n" : '')}
test('describes a release', () => assert.strictEqual(service.describeRelease({ name: 'api', version: '1.0.0' }), 'api@1.0.0'));
test('labels timeouts', () => {
  assert.strictEqual(service.timeoutLabel(60000), '1m');
${deps ? '  assert.strictEqual(service.timeoutLabel(5000), ms(5000));\n' : ''}});
test('summarizes a release against a range', () => {
  const r = { name: 'api', version: '1.4.0', timeoutMs: 60000 };
  assert.strictEqual(service.releaseSummary(r, '^1.2.0'), 'api@1.4.0 compatible (timeout 1m)');
});
`,
};

const WEB: RepoSpec = {
  name: 'web',
  index: (deps) => `'use strict';
${deps ? "const { escape } = require('lodash');\n" : "const escape = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');\n"}const service = require('../service');
function render(r) {
  return '<li>' + escape(service.describeRelease(r)) + '</li>';
}
module.exports = { render };
`,
  headIndex: (deps) => `${WEB.index(deps).replace(/function render[\s\S]*$/, '')}function render(r, range) {
  if (!range) return '<li>' + escape(service.describeRelease(r)) + '</li>';
  const summary = service.releaseSummary(r, range);
  const cls = summary.includes(' compatible') ? 'compatible' : 'incompatible';
  return '<li class="' + cls + '">' + escape(summary) + '</li>';
}
module.exports = { render };
`,
  hiddenTest: (
    deps,
  ) => `${hiddenPrelude('web', deps ? "const _ = require(W + '/web/node_modules/lodash');\n" : '')}
test('escapes names', () => {
  assert.strictEqual(web.render({ name: '<b>', version: '1.0.0' }), '<li>&lt;b&gt;@1.0.0</li>');
${deps ? "  assert.ok(web.render({ name: 'a&b', version: '1.0.0' }).includes(_.escape('a&b')));\n" : ''}});
test('renders compatibility', () => {
  const html = web.render({ name: 'api', version: '1.4.0', timeoutMs: 60000 }, '^1.2.0');
  assert.strictEqual(html, '<li class="compatible">api@1.4.0 compatible (timeout 1m)</li>');
});
`,
};

/** In dependency order: core ← service ← web. */
export const REPO_SPECS: readonly RepoSpec[] = [CORE, SERVICE, WEB];
