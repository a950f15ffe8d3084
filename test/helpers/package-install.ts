/**
 * The package as a user gets it: `npm pack` (which runs `prepare`, the type-checked build) and an
 * install of the tarball into a fresh folder, offline. A global install resolves every dependency
 * from the registry's metadata, which the npm cache does not keep; so the install folder gets a
 * lockfile made from this repository's one — its runtime (non-dev) packages with their registry
 * tarball URLs — and `npm ci --offline` takes every tarball from the cache. Install scripts are
 * off: the only one is better-sqlite3's native build, which the App needs and the CLI must not.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { z } from 'zod';
import { REPO_ROOT } from './example-cases.ts';

const run = promisify(execFile);

const packResultSchema = z.array(
  z.object({ filename: z.string(), files: z.array(z.object({ path: z.string() })) }),
);

export interface Packed {
  tarball: string;
  files: string[];
}

export async function packTarball(dest: string): Promise<Packed> {
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', dest], {
    cwd: REPO_ROOT,
    maxBuffer: 16 * 1024 * 1024,
  });
  const [result] = packResultSchema.parse(JSON.parse(stdout));
  return { tarball: path.join(dest, result!.filename), files: result!.files.map((f) => f.path) };
}

const lockSchema = z.object({
  packages: z.record(
    z.string(),
    z.looseObject({
      version: z.string().optional(),
      name: z.string().optional(),
      dev: z.boolean().optional(),
    }),
  ),
});

/** Installs `tarball` as the one dependency of `dir`; returns the path of its `tandem` bin link. */
export async function installOffline(tarball: string, dir: string): Promise<string> {
  const lock = lockSchema.parse(
    JSON.parse(await readFile(path.join(REPO_ROOT, 'package-lock.json'), 'utf8')),
  );
  const manifest = JSON.parse(await readFile(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
    version: string;
    dependencies: Record<string, string>;
  };
  const spec = `file:${path.basename(tarball)}`;
  const packages: Record<string, unknown> = {
    '': { name: 'tandem-install-check', dependencies: { tandem: spec } },
    'node_modules/tandem': {
      version: manifest.version,
      resolved: spec,
      integrity: `sha512-${createHash('sha512')
        .update(await readFile(tarball))
        .digest('base64')}`,
      dependencies: manifest.dependencies,
      bin: { tandem: 'bin/tandem.js' },
    },
  };
  for (const [key, entry] of Object.entries(lock.packages)) {
    if (!key.startsWith('node_modules/') || entry.dev) continue;
    const name = entry.name ?? key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length);
    const file = `${name.split('/').pop()}-${entry.version}.tgz`;
    packages[key] = { ...entry, resolved: `https://registry.npmjs.org/${name}/-/${file}` };
  }
  await writeFile(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: 'tandem-install-check', private: true, dependencies: { tandem: spec } }),
  );
  await writeFile(
    path.join(dir, 'package-lock.json'),
    JSON.stringify({ name: 'tandem-install-check', lockfileVersion: 3, requires: true, packages }),
  );
  await run('npm', ['ci', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: dir });
  return path.join(dir, 'node_modules', '.bin', 'tandem');
}
