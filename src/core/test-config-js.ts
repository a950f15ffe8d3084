/**
 * Test files a JavaScript/TypeScript package names itself: what `package.json` test scripts run,
 * jest `testMatch` within `roots`, vitest `include`, mocha `spec` (in `package.json`, their config
 * files or `.mocharc.*`). JavaScript config files are never executed: their string literals are
 * read where the option is written. Pure.
 */
import { parse as parseYaml } from 'yaml';
import { pathGlobs } from './test-file-rules.ts';

/** Commands and runners in test scripts: never paths. */
const NOT_PATHS = new Set(
  'node npm npx pnpm yarn bun deno run exec tsx ts-node mocha jest vitest ava tape tap nyc c8 cross-env xo eslint tsc standard karma playwright cypress jasmine uvu zora borp lab node-tap echo rimraf'.split(
    ' ',
  ),
);

/** Path-like words of a test script: `node test.js`, `mocha 'test/**\/*.spec.js'`, `tape test/*.js`. */
export function scriptPaths(script: string): string[] {
  const out: string[] = [];
  for (const word of script.split(/\s+|&&|\|\||;|\|/)) {
    const w = word.replace(/^['"]|['"]$/g, '');
    if (!w || w.startsWith('-') || w.includes('=') || w.includes('$') || NOT_PATHS.has(w)) continue;
    if (/^[\w@.*?{}[\],/-]+$/.test(w) && (w.includes('/') || /\.[cm]?[jt]sx?$/.test(w) || /[*?]/.test(w)))
      out.push(w);
    else if (/^(?:test|tests|spec|__tests__)$/.test(w)) out.push(w);
  }
  return out;
}

/** The string literals of `key: [ … ]` or `key: '…'` in a JavaScript or JSON text. */
export function literalsOf(text: string, key: string): string[] {
  const out: string[] = [];
  const re = new RegExp(`["']?\\b${key}["']?\\s*:\\s*(\\[[^\\]]*\\]|"[^"]*"|'[^']*'|\`[^\`]*\`)`, 'g');
  for (const m of text.matchAll(re)) {
    for (const s of m[1]!.matchAll(/"([^"]*)"|'([^']*)'|`([^`]*)`/g)) out.push(s[1] ?? s[2] ?? s[3] ?? '');
  }
  return out.filter(Boolean);
}

/** jest: each `testMatch` pattern under each root (`<rootDir>` when none). */
function jestGlobs(folder: string, testMatch: string[], roots: string[]): string[] {
  if (testMatch.length === 0) return [];
  const bases = roots.length ? roots : ['<rootDir>'];
  const out: string[] = [];
  for (const root of bases) {
    for (const pattern of testMatch) {
      const p = pattern.replace(/^<rootDir>\/?/, '');
      const rel = root === '<rootDir>' ? p : `${root.replace(/\/$/, '')}/${p.replace(/^\*\*\//, '**/')}`;
      out.push(...pathGlobs(folder, rel));
    }
  }
  return out;
}

const asList = (v: unknown): string[] =>
  typeof v === 'string' ? [v] : Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];

/** Globs a `package.json` names: test scripts, its `jest` and `mocha` keys. */
function packageJsonGlobs(folder: string, text: string): string[] {
  let pkg: Record<string, unknown>;
  try {
    pkg = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return [];
  }
  if (!pkg || typeof pkg !== 'object') return [];
  const out: string[] = [];
  const scripts = (pkg.scripts ?? {}) as Record<string, unknown>;
  for (const [name, script] of Object.entries(scripts)) {
    if (!/^(?:test|tests|spec)(?:[:_-].*)?$/.test(name) || typeof script !== 'string') continue;
    for (const p of scriptPaths(script)) out.push(...pathGlobs(folder, p));
  }
  const jest = (pkg.jest ?? {}) as Record<string, unknown>;
  out.push(...jestGlobs(folder, asList(jest.testMatch), asList(jest.roots)));
  const mocha = (pkg.mocha ?? {}) as Record<string, unknown>;
  for (const s of asList(mocha.spec)) out.push(...pathGlobs(folder, s));
  return out;
}

/** Globs one JavaScript-ecosystem config file names; `path` is repository-relative. */
export function jsConfigTestGlobs(path: string, text: string): string[] {
  const slash = path.lastIndexOf('/');
  const folder = slash < 0 ? '' : path.slice(0, slash);
  const name = path.slice(slash + 1);
  if (name === 'package.json') return packageJsonGlobs(folder, text);
  if (/^jest\.config\./.test(name)) {
    return jestGlobs(folder, literalsOf(text, 'testMatch'), literalsOf(text, 'roots'));
  }
  if (/^(?:vitest|vite)\.config\.|^vitest\.workspace\./.test(name)) {
    // `include` also names files of other tools in a vite config: only inside `test: { … }`.
    const at = text.search(/\btest\s*:\s*\{/);
    return at < 0 ? [] : literalsOf(text.slice(at), 'include').flatMap((p) => pathGlobs(folder, p));
  }
  if (/^\.mocharc\./.test(name)) {
    let specs: string[];
    if (/\.ya?ml$/.test(name)) {
      try {
        specs = asList((parseYaml(text) as Record<string, unknown> | null)?.spec);
      } catch {
        specs = [];
      }
    } else if (/\.jsonc?$/.test(name)) {
      try {
        specs = asList((JSON.parse(text) as Record<string, unknown>).spec);
      } catch {
        specs = literalsOf(text, 'spec');
      }
    } else specs = literalsOf(text, 'spec');
    return specs.flatMap((p) => pathGlobs(folder, p));
  }
  return [];
}

/** The config files read for JavaScript test rules. */
export const JS_TEST_CONFIG =
  /(?:^|\/)(?:package\.json|jest\.config\.[cm]?[jt]s(?:on)?|(?:vitest|vite)\.config\.[cm]?[jt]s|vitest\.workspace\.[cm]?[jt]s|\.mocharc\.(?:json|jsonc|ya?ml|[cm]?js))$/;
