/**
 * A one-shard partial report on disk (the example's shape: api + web both needed), for CLI
 * tests of `tandem combine` that need no Docker: merging it gives a resolved report.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { planMatrix } from '../../src/core/matrix-plan.ts';
import { API, WEB } from './repos.ts';
import { id, needs, reportFrom, simulate } from './runs.ts';

export async function writeResolvedShard(dir: string, file = 'shard.json'): Promise<string> {
  const plan = planMatrix([API, WEB], 'full');
  const F = id('api', 'creates a user');
  const P = id('web', 'renders');
  const runs = simulate(plan, (a) => ({ [F]: needs(a, API, WEB), [P]: 'passed' }));
  const report = reportFrom({ plan, runs, groups: [{ name: 'api' }, { name: 'web' }], shard: '1/1' });
  const out = path.join(dir, file);
  await writeFile(out, JSON.stringify(report));
  return out;
}
