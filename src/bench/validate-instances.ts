/**
 * `tandem bench validate`: per instance, the full 2^N matrix of the gold patches (test patch in
 * every configuration) with the gold configuration run `runs` times; F2P/P2P derived when
 * absent; flaky tests dropped and recorded (rejected with `strict`). Valid instances go to
 * `out`, rejected ones to `rejected.jsonl` beside it with their reasons.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';
import { deriveLists } from '../core/bench-derive-lists.ts';
import type { BenchInstance } from '../core/bench-instance.schema.ts';
import type { EvaluationOptions } from '../engine/evaluate-api.ts';
import { MirrorCache } from '../engine/git/git-mirror.ts';
import { BenchStates } from './bench-states.ts';
import { type CandidateContext, evaluateCandidate } from './evaluate-candidate.ts';
import { type LoadedInstance, loadInstances } from './instances-file.ts';
import { toJsonLines } from './json-lines.ts';
import { goldPatches } from './prediction-patches.ts';

export type RejectionKind =
  | 'test-patch-does-not-apply'
  | 'patch-does-not-apply'
  | 'prepare-failed'
  | 'infrastructure-error'
  | 'gold-unresolved'
  | 'not-jointly-necessary'
  | 'no-fail-to-pass'
  | 'flaky';

export interface Rejection {
  kind: RejectionKind;
  message: string;
  /** For `not-jointly-necessary`: the configuration that already passes. */
  configuration?: { id: string; applied: string[] };
}

export interface ValidateOptions {
  instances: string;
  out: string;
  runs: number;
  strict: boolean;
  jobs: number;
  retries: number;
  engine: Omit<EvaluationOptions, 'matrix' | 'only' | 'jobs' | 'slots' | 'reruns'>;
  onEvent?: (
    e: { type: 'start'; total: number } | { type: 'done'; instanceId: string; verdict: string },
  ) => void;
}

export interface ValidateResult {
  accepted: number;
  rejected: number;
  infraErrors: number;
  outFile: string;
  rejectedFile: string;
}

type Verdict =
  | { ok: true; instance: BenchInstance; flaky: Array<{ id: string; statuses: string[] }>; derived: boolean }
  | { ok: false; reasons: Rejection[]; infra: boolean };

export async function validateInstances(opts: ValidateOptions): Promise<ValidateResult> {
  const loaded = await loadInstances(opts.instances);
  const outFile = path.resolve(opts.out);
  const rejectedFile = path.join(path.dirname(outFile), 'rejected.jsonl');
  opts.onEvent?.({ type: 'start', total: loaded.length });
  const slots = pLimit(Math.max(1, opts.jobs));
  const ctx: CandidateContext = {
    states: new BenchStates(opts.engine.cacheDir, new MirrorCache(opts.engine.cacheDir)),
    engine: { ...opts.engine, jobs: opts.jobs, reruns: 0, slots: <T>(fn: () => Promise<T>) => slots(fn) },
    retries: opts.retries,
  };
  const inFlight = pLimit(Math.max(2, opts.jobs * 2));
  const verdicts = await Promise.all(
    loaded.map((l) =>
      inFlight(async () => {
        const v = await judge(l, opts, ctx);
        opts.onEvent?.({
          type: 'done',
          instanceId: l.instance.instance_id,
          verdict: v.ok ? 'valid' : `rejected (${v.reasons.map((r) => r.kind).join(', ')})`,
        });
        return v;
      }),
    ),
  );
  const valid: unknown[] = [];
  const rejected: unknown[] = [];
  verdicts.forEach((v, i) => {
    const l = loaded[i]!;
    if (v.ok) valid.push(outputRow(l, v, opts.runs, path.dirname(outFile)));
    else rejected.push({ instance_id: l.instance.instance_id, source: l.source, reasons: v.reasons });
  });
  await mkdir(path.dirname(outFile), { recursive: true });
  await writeFile(outFile, toJsonLines(valid));
  await writeFile(rejectedFile, toJsonLines(rejected));
  return {
    accepted: valid.length,
    rejected: rejected.length,
    infraErrors: verdicts.filter((v) => !v.ok && v.infra).length,
    outFile,
    rejectedFile,
  };
}

async function judge(l: LoadedInstance, opts: ValidateOptions, ctx: CandidateContext): Promise<Verdict> {
  const result = await evaluateCandidate(l, goldPatches(l.instance), 'full', ctx, { reruns: opts.runs - 1 });
  const reject = (kind: RejectionKind, message: string, infra = false): Verdict => ({
    ok: false,
    reasons: [{ kind, message }],
    infra,
  });
  switch (result.kind) {
    case 'injection-failed':
      return reject('test-patch-does-not-apply', result.message);
    case 'not-applied': {
      const bad = result.apply.filter((a) => !a.applied);
      return reject(
        'patch-does-not-apply',
        bad.map((a) => `${a.repo}: ${a.message ?? 'does not apply'}`).join('; '),
      );
    }
    case 'error': {
      const prepare = result.report?.infraErrors.find((e) => e.kind === 'prepare');
      if (prepare) return reject('prepare-failed', prepare.message);
      return reject('infrastructure-error', result.errors.join('; '), true);
    }
    case 'ran':
      break;
  }
  const lists = deriveLists(result.runs, {
    ...(l.instance.FAIL_TO_PASS ? { failToPass: l.instance.FAIL_TO_PASS } : {}),
    ...(l.instance.PASS_TO_PASS ? { passToPass: l.instance.PASS_TO_PASS } : {}),
  });
  const reasons: Rejection[] = [];
  if (lists.failingInGold.length > 0) {
    reasons.push({
      kind: 'gold-unresolved',
      message: `the gold configuration fails ${lists.failingInGold.length} listed test(s): ${lists.failingInGold.slice(0, 5).join(', ')}`,
    });
  }
  if (lists.failToPass.length === 0) {
    reasons.push({
      kind: 'no-fail-to-pass',
      message: 'no test fails before the gold change and passes after it',
    });
  }
  for (const c of lists.passingOthers) {
    reasons.push({
      kind: 'not-jointly-necessary',
      message: `configuration "${c.id}" (${c.applied.length ? `only ${c.applied.join(', ')}` : 'no gold patch'}) already passes every test`,
      configuration: c,
    });
  }
  if (opts.strict && lists.flaky.length > 0) {
    reasons.push({
      kind: 'flaky',
      message: `${lists.flaky.length} flaky test(s) across ${opts.runs} gold runs: ${lists.flaky.map((f) => `${f.id} (${f.statuses.join('/')})`).join(', ')}`,
    });
  }
  if (reasons.length > 0) return { ok: false, reasons, infra: false };
  return {
    ok: true,
    instance: { ...l.instance, FAIL_TO_PASS: lists.failToPass, PASS_TO_PASS: lists.passToPass },
    flaky: lists.flaky,
    derived: lists.derived,
  };
}

/**
 * The instance as validated: lists filled, and the suite still found from the output file: a
 * suite path rewritten relative to it, an inline suite's folder given as `suite_dir`.
 */
function outputRow(l: LoadedInstance, v: Extract<Verdict, { ok: true }>, runs: number, outDir: string) {
  const inline = typeof v.instance.suite !== 'string';
  const suite = inline
    ? v.instance.suite
    : path.relative(
        outDir,
        path.resolve(path.dirname(l.source.replace(/:\d+$/, '')), v.instance.suite as string),
      );
  const suiteDir = path.relative(outDir, l.suiteDir);
  const { suite_dir: _given, ...rest } = v.instance;
  return {
    ...rest,
    suite,
    ...(inline && suiteDir !== '' ? { suite_dir: suiteDir } : {}),
    metadata: {
      ...v.instance.metadata,
      validation: { runs, lists: v.derived ? 'derived' : 'given', flaky: v.flaky },
    },
  };
}
