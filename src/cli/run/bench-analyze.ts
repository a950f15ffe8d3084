/**
 * The CLI side of `tandem bench regrade` and `tandem bench compare`: flags validated with zod,
 * the result printed, exit codes (compare: 1 when B regressed beyond `--max-regression`).
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { parseFlags } from '../eval-options.ts';
import { EXIT } from '../exit-codes.ts';

const pct = (x: number) => `${Math.round(x * 1000) / 10}%`;
const rel = (f: string) => path.relative(process.cwd(), f) || f;

export async function benchRegradeCommand(dir: string, raw: unknown): Promise<number> {
  const flags = parseFlags(
    z.object({
      instances: z.string().min(1),
      suites: z.string().min(1).optional(),
      n2pAsF2p: z.boolean().default(false),
      out: z.string().min(1).optional(),
    }),
    raw,
  );
  const { regradeRun } = await import('../../bench/regrade-run.ts');
  const result = await regradeRun({
    run: dir,
    instances: flags.instances,
    ...(flags.suites ? { suites: flags.suites } : {}),
    ...(flags.n2pAsF2p ? { n2pAsF2p: true } : {}),
    ...(flags.out ? { out: flags.out } : {}),
  });
  for (const w of result.warnings) process.stderr.write(`tandem: ${w}\n`);
  for (const c of result.changed) process.stdout.write(`  ${c}\n`);
  for (const { file, summary } of result.summaries) {
    process.stdout.write(
      `${summary.model_name_or_path}: ${summary.resolved_instances}/${summary.total_instances} resolved after regrading → ${rel(file)}\n`,
    );
  }
  return EXIT.resolved;
}

export async function benchCompareCommand(a: string, b: string, raw: unknown): Promise<number> {
  const flags = parseFlags(
    z.object({
      modelA: z.string().min(1).optional(),
      modelB: z.string().min(1).optional(),
      maxRegression: z.coerce.number().min(0).max(1).optional(),
      json: z.string().min(1).optional(),
    }),
    raw,
  );
  const { compareRunFolders } = await import('../../bench/compare-runs.ts');
  const c = await compareRunFolders({
    runA: a,
    runB: b,
    ...(flags.modelA ? { modelA: flags.modelA } : {}),
    ...(flags.modelB ? { modelB: flags.modelB } : {}),
    ...(flags.maxRegression !== undefined ? { maxRegression: flags.maxRegression } : {}),
  });
  const side = (name: string, s: typeof c.a) =>
    `${name}: ${s.resolved}/${c.instances} resolved (${pct(s.rate)}, 95% CI ${pct(s.ci95.low)}–${pct(s.ci95.high)})`;
  const list = (ids: string[]) =>
    ids.length ? ` ${ids.slice(0, 20).join(', ')}${ids.length > 20 ? ', …' : ''}` : '';
  process.stdout.write(
    [
      `A ${side(c.modelA, c.a)}`,
      `B ${side(c.modelB, c.b)}`,
      `resolved by A only: ${c.onlyA.length}${list(c.onlyA)}`,
      `resolved by B only: ${c.onlyB.length}${list(c.onlyB)}`,
      `both: ${c.both}, neither: ${c.neither}; exact McNemar p = ${c.pValue}`,
      `B − A: ${c.regression > 0 ? '−' : '+'}${pct(Math.abs(c.regression))} of instances${
        c.regressed === undefined
          ? ''
          : c.regressed
            ? ` — worse than allowed (--max-regression ${flags.maxRegression})`
            : ` — within --max-regression ${flags.maxRegression}`
      }`,
    ].join('\n') + '\n',
  );
  if (flags.json) await writeFile(flags.json, `${JSON.stringify(c, null, 2)}\n`);
  return c.regressed ? EXIT.unresolved : EXIT.resolved;
}
