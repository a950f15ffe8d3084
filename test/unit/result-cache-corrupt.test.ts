/**
 * A result-cache entry that cannot be read (a torn write, a disk error, an old format) is a
 * miss with a warning, and the next put rewrites it: never a crash on every run until the cache
 * is deleted. Real files in a temporary folder.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ConfigurationRun } from '../../src/core/run.schema.ts';
import { ResultCache } from '../../src/engine/results/result-cache.ts';
import { makeTempDir } from '../helpers/git-fixtures.ts';

const run: ConfigurationRun = {
  id: 'full',
  applied: ['acme/api'],
  attempt: 0,
  setup: [],
  cached: false,
  durationMs: 1200,
  groups: [
    {
      name: 'api',
      repo: 'acme/api',
      status: 'reported',
      exitCode: 0,
      durationMs: 900,
      tests: [{ id: 'api::::works', status: 'passed' }],
    },
  ],
};
const KEY = 'ab'.repeat(32);

async function entryFile(dir: string): Promise<string> {
  const sub = path.join(dir, KEY.slice(0, 2));
  const [file] = await readdir(sub);
  return path.join(sub, file!);
}

describe('a corrupt result-cache entry', () => {
  it.each([
    ['not JSON', '{"id": "full", "applied": ['],
    ['another format', '{"id": 7}'],
  ])('(%s) is ignored with a warning, then rewritten', async (_what, text) => {
    const dir = await makeTempDir('tandem-result-cache-');
    const warnings: string[] = [];
    const cache = new ResultCache(dir, (m) => warnings.push(m));
    await cache.put(KEY, run);
    const file = await entryFile(dir);
    await writeFile(file, text);
    await expect(cache.get(KEY)).resolves.toBeUndefined();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`ignoring a`);
    expect(warnings[0]).toContain(file);
    await cache.put(KEY, run);
    expect(JSON.parse(await readFile(file, 'utf8')).id).toBe('full');
    await expect(cache.get(KEY)).resolves.toMatchObject({ id: 'full', durationMs: 1200 });
    expect(warnings).toHaveLength(1);
  });
});
