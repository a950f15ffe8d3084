/**
 * The CLI side of `tandem bench`: flags validated with zod (a bad flag names itself), engine
 * defaults from this machine, a progress bar with ETA on stderr, exit codes. The work itself is
 * in src/bench/.
 */
import path from 'node:path';
import { z } from 'zod';
import { InputError } from '../../core/errors.ts';
import { shardSchema } from '../../core/shard-plan.ts';
import { engineDefaults, hostDefaults } from '../../engine/evaluation-request.ts';
import { type EngineFlags, engineFlagShape, engineSettings, flagName, parseFlags } from '../eval-options.ts';
import { EXIT } from '../exit-codes.ts';
import { countingBar } from '../progress.ts';

// The engine flags every evaluating command shares, plus bench's own.
const engineFlags = {
  ...engineFlagShape,
  retries: z.coerce.number().int().min(0).max(10).default(2),
  quiet: z.boolean().default(false),
};

const runFlagsSchema = z.object({
  ...engineFlags,
  instances: z.string().min(1),
  predictions: z.string().min(1),
  runId: z
    .string()
    .regex(/^[A-Za-z0-9_.-]+$/, 'expected letters, digits, "_", "." or "-"')
    .refine((id) => !/^\.+$/.test(id), 'expected a run id that is not "." or ".." (it names a folder)'),
  suites: z.string().min(1).optional(),
  n2pAsF2p: z.boolean().default(false),
  attempts: z.coerce.number().int().min(1).max(100).default(1),
  retryErrors: z.boolean().default(true),
  runsDir: z.string().default('runs'),
  matrix: z.enum(['none', 'leave-one-out', 'full']).default('none'),
  diagnose: z.boolean().default(false),
  shard: shardSchema.optional(),
});

const validateFlagsSchema = z.object({
  ...engineFlags,
  out: z.string().min(1),
  suites: z.string().min(1).optional(),
  n2pAsF2p: z.boolean().default(false),
  runs: z.coerce.number().int().min(1).max(20).default(3),
  strict: z.boolean().default(false),
});

/** Folders, sandbox, network and CA bundle decided as for `tandem eval` (one request builder). */
async function engineOptions(flags: EngineFlags, signal: AbortSignal) {
  const defaults = await engineDefaults(engineSettings(flags), {
    host: hostDefaults(process.env),
    label: flagName,
  });
  return { ...defaults, signal };
}

const pct = (x: number) => Math.round(x * 1000) / 10;

/** Predictions or instances counted (`[3/60] model instance: resolved` without a TTY). */
function progressBar(quiet: boolean, unit: 'predictions' | 'instances') {
  if (quiet) return { start: (_t: number) => {}, tick: (_l: string) => {}, stop: () => {} };
  return countingBar(process.stderr, {
    unit,
    eta: true,
    line: (done, total, last) => `  [${done}/${total}] ${last}`,
  });
}

export async function benchRunCommand(raw: unknown, signal: AbortSignal): Promise<number> {
  const flags = parseFlags(runFlagsSchema, raw);
  const { runBench } = await import('../../bench/run-bench.ts');
  const bar = progressBar(flags.quiet, 'predictions');
  try {
    const result = await runBench({
      instances: flags.instances,
      ...(flags.suites ? { suites: flags.suites } : {}),
      ...(flags.n2pAsF2p ? { n2pAsF2p: true } : {}),
      predictions: flags.predictions,
      runId: flags.runId,
      attempts: flags.attempts,
      retryErrors: flags.retryErrors,
      runsDir: flags.runsDir,
      jobs: flags.jobs ?? Math.max(1, Math.min(4, (await import('node:os')).availableParallelism())),
      matrix: flags.matrix,
      diagnose: flags.diagnose,
      ...(flags.shard ? { shard: flags.shard } : {}),
      retries: flags.retries,
      engine: await engineOptions(flags, signal),
      onEvent: (e) => {
        if (e.type === 'start') {
          if (!flags.quiet && e.skipped)
            process.stderr.write(`tandem: resuming: ${e.skipped} finished prediction(s) skipped\n`);
          if (!flags.quiet && e.retried)
            process.stderr.write(
              `tandem: resuming: ${e.retried} prediction(s) that ended in an error run again\n`,
            );
          bar.start(e.total - e.skipped);
        } else bar.tick(`${e.model} ${e.instanceId}: ${e.outcome}`);
      },
    });
    bar.stop();
    for (const w of result.warnings) process.stderr.write(`tandem: ${w}\n`);
    for (const { file, summary } of result.summaries) {
      const m = summary.metrics;
      const ci = `95% CI ${pct(m.case_success_ci95.low)}–${pct(m.case_success_ci95.high)}%`;
      const passAt =
        m.attempts > 1 ? `, pass@1 ${pct(m.pass_at_1)}%, pass@${m.attempts} ${pct(m.pass_at_k)}%` : '';
      process.stdout.write(
        `${summary.model_name_or_path}: ${summary.resolved_instances}/${summary.total_instances} resolved (${ci}${passAt}), ` +
          `${summary.unresolved_instances} unresolved, ${summary.empty_patch_instances} empty, ` +
          `${summary.error_instances} error(s) → ${path.relative(process.cwd(), file) || file}\n`,
      );
    }
    for (const { model, ids } of result.missing) {
      process.stderr.write(
        `tandem: ${model}: no prediction for ${ids.length} instance(s): ${ids.slice(0, 20).join(', ')}${ids.length > 20 ? ', …' : ''}\n`,
      );
    }
    if (result.summaries.some((s) => s.summary.error_instances > 0)) return EXIT.infra;
    return result.missing.length > 0 ? EXIT.unresolved : EXIT.resolved;
  } finally {
    bar.stop();
  }
}

export async function benchValidateCommand(
  instances: string,
  raw: unknown,
  signal: AbortSignal,
): Promise<number> {
  const flags = parseFlags(validateFlagsSchema, raw);
  const { validateInstances } = await import('../../bench/validate-instances.ts');
  const bar = progressBar(flags.quiet, 'instances');
  try {
    const result = await validateInstances({
      instances,
      ...(flags.suites ? { suites: flags.suites } : {}),
      ...(flags.n2pAsF2p ? { n2pAsF2p: true } : {}),
      out: flags.out,
      runs: flags.runs,
      strict: flags.strict,
      jobs: flags.jobs ?? Math.max(1, Math.min(4, (await import('node:os')).availableParallelism())),
      retries: flags.retries,
      engine: await engineOptions(flags, signal),
      onEvent: (e) => (e.type === 'start' ? bar.start(e.total) : bar.tick(`${e.instanceId}: ${e.verdict}`)),
    });
    bar.stop();
    for (const w of result.warnings) process.stderr.write(`tandem: ${w}\n`);
    process.stdout.write(
      `${result.accepted} valid → ${result.outFile}; ${result.rejected} rejected → ${result.rejectedFile}\n`,
    );
    if (result.infraErrors > 0) return EXIT.infra;
    if (result.accepted === 0) {
      process.stderr.write(`tandem: no valid instance remains; the reasons are in ${result.rejectedFile}\n`);
      return EXIT.unresolved;
    }
    return EXIT.resolved;
  } finally {
    bar.stop();
  }
}

export async function benchMergeCommand(dirs: string[], raw: unknown): Promise<number> {
  const flags = parseFlags(z.object({ instances: z.string().min(1), out: z.string().min(1) }), raw);
  const { combineRuns } = await import('../../bench/combine-runs.ts');
  const summaries = await combineRuns(dirs, flags.out, flags.instances);
  for (const { file, summary } of summaries) {
    process.stdout.write(
      `${summary.model_name_or_path}: ${summary.resolved_instances}/${summary.total_instances} resolved → ${file}\n`,
    );
  }
  return EXIT.resolved;
}

export async function benchDeriveCommand(kind: string, instances: string, raw: unknown): Promise<number> {
  if (kind !== 'single-side')
    throw new InputError(`bench derive: unknown kind "${kind}" (have: single-side)`);
  const flags = parseFlags(z.object({ out: z.string().min(1), cacheDir: z.string().optional() }), raw);
  const { deriveSingleSide } = await import('../../bench/derive-single-side.ts');
  const cacheDir = path.resolve(flags.cacheDir ?? hostDefaults(process.env).cacheDir);
  const { derived, skipped } = await deriveSingleSide(instances, flags.out, cacheDir);
  process.stdout.write(
    `${derived} single-side instance(s) → ${flags.out}${skipped.length ? `; ${skipped.length} one-repository instance(s) skipped` : ''}\n`,
  );
  return EXIT.resolved;
}

export async function benchReportCommand(dirs: string[], raw: unknown): Promise<number> {
  const flags = parseFlags(z.object({ html: z.string().optional(), markdown: z.string().optional() }), raw);
  if (!flags.html && !flags.markdown)
    throw new InputError('bench report: give --html <file> and/or --markdown <file>');
  const { loadRuns } = await import('../../bench/load-runs.ts');
  const { benchView } = await import('../../report/bench-view.ts');
  const { renderBenchHtml, renderBenchMarkdown } = await import('../../report/bench-render.ts');
  const { writeFile } = await import('node:fs/promises');
  const view = benchView(await loadRuns(dirs));
  if (flags.html) await writeFile(flags.html, renderBenchHtml(view));
  if (flags.markdown) await writeFile(flags.markdown, renderBenchMarkdown(view));
  process.stdout.write(`${view.models.length} model run(s), ${view.instances.length} instance(s)\n`);
  return EXIT.resolved;
}
