/**
 * Compiles the CLI (src/cli/main.ts) and the App (src/app/main.ts, what `npm start` runs), with
 * everything they import, into build/ with tsc
 * (tsconfig.build.json: `.ts` imports rewritten to `.js`, same folder depth as src/ so
 * `templates/` and `package.json` resolve from both layouts).
 *
 *   node scripts/build-cli.js             type-checked build (`npm run build`, `prepare`)
 *   node scripts/build-cli.js --no-check  transpile only (what bin/tandem.js runs in a checkout)
 *   node scripts/build-cli.js --if-stale  transpile only, and only when build/ is stale (`npm start`)
 *
 * Plain JavaScript on purpose: bin/tandem.js imports it in a checkout before anything is compiled.
 * A stamp file records when the sources were compiled, so a checkout can tell a stale build
 * from a current one by modification times alone (a few milliseconds, no TypeScript loaded).
 */
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const STAMP = path.join(ROOT, 'build', '.sources-compiled');
const LOCK = path.join(ROOT, 'build.lock');
/** A lock older than this was left by a killed build (a build takes seconds). */
const STALE_LOCK_MS = 5 * 60_000;
/** Inputs besides src/ whose change changes the output. */
const CONFIGS = ['tsconfig.json', 'tsconfig.build.json'];

function mtimeMs(file) {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

/** The newest modification time among the sources and the compiler configuration. */
function newestInputMs() {
  let newest = Math.max(...CONFIGS.map((c) => mtimeMs(path.join(ROOT, c))));
  const src = path.join(ROOT, 'src');
  for (const entry of readdirSync(src, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && entry.name.endsWith('.ts')) {
      newest = Math.max(newest, mtimeMs(path.join(entry.parentPath ?? entry.path, entry.name)));
    }
  }
  return newest;
}

/** True when build/ was compiled from the sources as they are now. */
export function buildIsCurrent() {
  const compiledAt = mtimeMs(STAMP);
  return compiledAt > 0 && newestInputMs() <= compiledAt;
}

/**
 * Moves every compiled file into build/ by rename, which replaces a file in one step: a CLI
 * already running from build/ (its commands are imported on use) never reads a half-written file.
 */
function publish(fromDir, toDir) {
  for (const entry of readdirSync(fromDir, { withFileTypes: true })) {
    const from = path.join(fromDir, entry.name);
    const to = path.join(toDir, entry.name);
    if (entry.isDirectory()) {
      mkdirSync(to, { recursive: true });
      publish(from, to);
    } else {
      renameSync(from, to);
    }
  }
}

/**
 * Runs tsc; returns its exit status. The stamp carries the time the compile started, or the newest
 * source's time when that is later (a file dated ahead of the clock, as a copy or `touch -d` makes
 * it): the build is of those sources, so it must not look stale until the clock catches up.
 */
export function compile({ check }) {
  const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  if (!existsSync(tsc)) {
    process.stderr.write('tandem: TypeScript is not installed here; run `npm ci` first.\n');
    return 3;
  }
  // In whole milliseconds and one ahead: a Date truncates a source's sub-millisecond time, and
  // seconds given to utimes round, either of which could leave the stamp just older than the
  // newest source and the build stale at once.
  const started = (Math.ceil(Math.max(Date.now(), newestInputMs())) + 1) / 1000;
  const out = path.join(ROOT, 'build');
  mkdirSync(out, { recursive: true });
  const staging = mkdtempSync(path.join(out, '.staging-'));
  const args = [tsc, '-p', path.join(ROOT, 'tsconfig.build.json'), '--outDir', staging];
  if (!check) args.push('--noCheck');
  // tsc prints diagnostics on stdout; send them to stderr so a command's stdout stays its result.
  const run = spawnSync(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 2, 2] });
  const status = run.status ?? 3;
  // A type error still emits (noEmitOnError is off): publish, but leave the build unstamped.
  publish(staging, out);
  rmSync(staging, { recursive: true, force: true });
  if (status === 0) {
    writeFileSync(STAMP, 'Modification time = when build/ was compiled from src/ (scripts/build-cli.js).\n');
    utimesSync(STAMP, started, started);
  }
  return status;
}

/** A lock whose holder has died (Ctrl-C during a compile) or that is far older than a build. */
function lockAbandoned() {
  if (Date.now() - mtimeMs(LOCK) > STALE_LOCK_MS) return true;
  let pid;
  try {
    pid = Number(readFileSync(path.join(LOCK, 'pid'), 'utf8'));
  } catch {
    return false; // just taken: the holder has not written its pid yet
  }
  try {
    process.kill(pid, 0);
    return false;
  } catch (e) {
    return e.code === 'ESRCH';
  }
}

/** Sleeps without an event loop (bin/tandem.js has not started one yet). */
function pause(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Holds `build.lock` (mkdir is atomic) while `fn` runs, so parallel CLI runs in one checkout
 * (the test suite starts several) compile once instead of writing build/ all at the same time.
 */
function withBuildLock(fn) {
  for (;;) {
    try {
      mkdirSync(LOCK);
      writeFileSync(path.join(LOCK, 'pid'), String(process.pid));
      break;
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
      if (lockAbandoned()) rmSync(LOCK, { recursive: true, force: true });
      else pause(100);
    }
  }
  try {
    return fn();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

/**
 * For bin/tandem.js in a checkout: compiles (transpile only) when build/ is missing or older than
 * the sources, saying so on stderr. Returns false when the compile failed.
 */
export function ensureCurrentBuild() {
  if (buildIsCurrent()) return true;
  return withBuildLock(() => {
    if (buildIsCurrent()) return true; // another process compiled while we waited
    const why = mtimeMs(STAMP) > 0 ? 'the sources changed since the last build' : 'no build yet';
    process.stderr.write(`tandem: compiling the CLI from src/ (${why})…\n`);
    return compile({ check: false }) === 0;
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--if-stale')) {
    // `npm start`: compile (transpile only) only when build/ is older than the sources.
    process.exitCode = ensureCurrentBuild() ? 0 : 3;
  } else {
    const check = !process.argv.includes('--no-check');
    process.exitCode = withBuildLock(() => compile({ check }));
  }
}
