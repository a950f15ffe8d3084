/**
 * The shipped deployment recipes (`deploy/`) against the code: every command they run is one the
 * checkout has, and every variable they set is one the App reads (its settings) or documents
 * (docs/app.md's environment table), with a value the App's settings accept.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { settingsFromEnv } from '../../src/app/settings.ts';

const root = join(import.meta.dirname, '..', '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

/** `Key=value` settings of a systemd unit (every line of that key, in order). */
function directives(unit: string, key: string): string[] {
  return unit
    .split('\n')
    .filter((l) => l.startsWith(`${key}=`))
    .map((l) => l.slice(key.length + 1));
}

/** The variables a unit's `Environment=` lines set (`A=1 B=2` on one line too). */
function unitEnv(unit: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of directives(unit, 'Environment'))
    for (const [, k, v] of line.matchAll(/([A-Z_][A-Z0-9_]*)=(\S*)/g)) env[k!] = v!;
  return env;
}

/** The variables the App's settings schema reads (`src/app/settings.ts`). */
function settingsKeys(): Set<string> {
  const src = read('src/app/settings.ts');
  const schema = src.slice(src.indexOf('z.object({'), src.indexOf('});', src.indexOf('z.object({')));
  return new Set([...schema.matchAll(/^\s+([A-Z][A-Z0-9_]*):/gm)].map((m) => m[1]!));
}

/** The variables docs/app.md's environment table names. */
function documentedKeys(): Set<string> {
  const doc = read('docs/app.md');
  const start = doc.indexOf('### 3. Environment');
  const table = doc.slice(start, doc.indexOf('\n\n', doc.indexOf('|---|', start)));
  return new Set([...table.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]!));
}

/** The CLI's sub-commands as registered (`program.command('name')`). */
function cliCommands(): Set<string> {
  const dir = join(root, 'src/cli/commands');
  const names = readdirSync(dir).flatMap((f) =>
    [...readFileSync(join(dir, f), 'utf8').matchAll(/program\s*\.command\('([a-z-]+)'/g)].map((m) => m[1]!),
  );
  return new Set(names);
}

const APP_UNIT = read('deploy/tandem-app.service');
const WORKER_UNIT = read('deploy/tandem-worker.service');
const CONTAINERFILE = read('deploy/Containerfile');
const pkg = JSON.parse(read('package.json')) as {
  scripts: Record<string, string>;
  bin: Record<string, string>;
};

/** The command line of `ExecStart=`, relative to the unit's working directory. */
function execStart(unit: string): string[] {
  const [workdir] = directives(unit, 'WorkingDirectory');
  const [cmd] = directives(unit, 'ExecStart');
  return cmd!.split(/\s+/).map((a) => (a.startsWith(`${workdir}/`) ? a.slice(workdir!.length + 1) : a));
}

describe('deploy/ recipes name what the code has', () => {
  it('every Environment= key is read by the settings or documented, and the App accepts the values', () => {
    const known = new Set([...settingsKeys(), ...documentedKeys()]);
    expect(known).toContain('TANDEM_DATA_DIR');
    expect(known).toContain('LOG_LEVEL');
    for (const unit of [APP_UNIT, WORKER_UNIT]) {
      const env = unitEnv(unit);
      expect(Object.keys(env).length).toBeGreaterThan(0);
      for (const key of Object.keys(env))
        expect(known, `${key} is neither read nor documented`).toContain(key);
    }
    const settings = settingsFromEnv(unitEnv(APP_UNIT));
    expect(settings).toMatchObject({ dataDir: '/var/lib/tandem', host: '127.0.0.1', port: 3000 });
  });

  it('the App unit and the container run the entry `npm start` runs', () => {
    expect(execStart(APP_UNIT)).toEqual(['/usr/bin/node', 'build/app/main.js']);
    expect(pkg.scripts.start).toMatch(/&& node build\/app\/main\.js$/);
    expect(existsSync(join(root, 'src/app/main.ts'))).toBe(true);
    expect(CONTAINERFILE).toContain('CMD ["node", "build/app/main.js"]');
    const containerEnv = Object.fromEntries(
      [...CONTAINERFILE.matchAll(/^\s*(?:ENV\s+)?([A-Z_][A-Z0-9_]*)=(\S+?)\s*\\?$/gm)].map((m) => [
        m[1]!,
        m[2]!,
      ]),
    );
    expect(Object.keys(containerEnv).sort()).toEqual(['HOST', 'LOG_LEVEL', 'PORT', 'TANDEM_DATA_DIR']);
    expect(settingsFromEnv(containerEnv)).toMatchObject({ dataDir: '/var/lib/tandem', port: 3000 });
    // What the image copies is in the checkout (build/ and node_modules/ once built and installed).
    for (const [, from] of CONTAINERFILE.matchAll(/^COPY (\S+)/gm))
      expect(existsSync(join(root, from!)), `${from} to copy`).toBe(true);
  });

  it('the worker unit runs the CLI the package installs', () => {
    const [node, script, ...args] = execStart(WORKER_UNIT);
    expect(node).toBe('/usr/bin/node');
    expect(script).toBe(pkg.bin.tandem!.replace(/^\.\//, ''));
    expect(args).toEqual(['worker']);
  });

  // `tandem worker` is being built beside this (issue 27, item 3): checked once it is registered.
  it.runIf(cliCommands().has('worker'))('`tandem worker` is a command of the CLI', () => {
    expect(cliCommands()).toContain('worker');
  });
});
