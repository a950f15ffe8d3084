/**
 * `tandem bench validate`: per instance, the full 2^N matrix of the gold patches (test patch in
 * every configuration) with the gold configuration run `runs` times; F2P/P2P derived when
 * absent; flaky tests dropped (rejected with `strict`). Every test left out is recorded with its
 * reason. Valid instances go to `out` (portable: paths relative to it), rejected ones to
 * `<out>.rejected.jsonl` beside it with their reasons. Lists are read and written in the
 * dataset's test names (the suite's `dataset_names`).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';
import { type DroppedTest, deriveLists } from '../core/bench-derive-lists.ts';
import { datasetNameOf, qualifyLists } from '../core/dataset-names.ts';
import type { EvaluationOptions } from '../engine/evaluate-api.ts';
import { MirrorCache } from '../engine/git/git-mirror.ts';
import { BenchStates } from './bench-states.ts';
import { type CandidateContext, evaluateCandidate } from './evaluate-candidate.ts';
import { instanceLists, namedGroups } from './grade-candidate.ts';
import { type LoadedInstance, loadInstances } from './instances-file.ts';
import { toJsonLines } from './json-lines.ts';
import { goldPatches } from './prediction-patches.ts';
import { publishedLists, rejectedFileFor, type ValidatedInstance, validatedRow } from './validated-row.ts';

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
  /** Maps rows to suites by repository (and version). */
  suites?: string;
  /** Multi-SWE-bench rows: count `n2p_tests` as FAIL_TO_PASS. */
  n2pAsF2p?: boolean;
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
  /** `<instance>: <names warning>` for each instance whose listed names no run reported. */
  warnings: string[];
  outFile: string;
  rejectedFile: string;
}

type Verdict =
  | ({ ok: true } & ValidatedInstance)
  | { ok: false; reasons: Rejection[]; infra: boolean; dropped?: DroppedTest[] };

export async function validateInstances(opts: ValidateOptions): Promise<ValidateResult> {
  const loaded = await loadInstances(opts.instances, {
    ...(opts.suites ? { suites: opts.suites } : {}),
    ...(opts.n2pAsF2p ? { n2pAsF2p: true } : {}),
  });
  const outFile = path.resolve(opts.out);
  const rejectedFile = rejectedFileFor(outFile);
  opts.onEvent?.({ type: 'start', total: loaded.length });
  const slots = pLimit(Math.max(1, opts.jobs));
  const ctx: CandidateContext = {
    states: new BenchStates(opts.engine.cacheDir, new MirrorCache(opts.engine.cacheDir)),
    engine: { ...opts.engine, jobs: opts.jobs, reruns: 0, slots: <T>(fn: () => Promise<T>) => slots(fn) },
    retries: opts.retries,
  };
  const inFlight = pLimit(Math.max(2, opts.jobs * 2));
  const warnings = new Map<string, string>();
  const verdicts = await Promise.all(
    loaded.map((l) =>
      inFlight(async () => {
        const v = await judge(l, opts, ctx, (w) => warnings.set(l.instance.instance_id, w));
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
    if (v.ok) valid.push(validatedRow(l, v, opts.runs, path.dirname(outFile)));
    else
      rejected.push({
        instance_id: l.instance.instance_id,
        source: l.source,
        reasons: v.reasons,
        ...(v.dropped?.length ? { dropped: v.dropped } : {}),
      });
  });
  await mkdir(path.dirname(outFile), { recursive: true });
  await writeFile(outFile, toJsonLines(valid));
  await writeFile(rejectedFile, toJsonLines(rejected));
  return {
    accepted: valid.length,
    rejected: rejected.length,
    infraErrors: verdicts.filter((v) => !v.ok && v.infra).length,
    // In the instances' order, whatever order they finished in.
    warnings: loaded.flatMap((l) => {
      const w = warnings.get(l.instance.instance_id);
      return w ? [`${l.instance.instance_id}: ${w}`] : [];
    }),
    outFile,
    rejectedFile,
  };
}

async function judge(
  l: LoadedInstance,
  opts: ValidateOptions,
  ctx: CandidateContext,
  warn: (namesWarning: string) => void,
): Promise<Verdict> {
  const result = await evaluateCandidate(l, goldPatches(l.instance), 'full', ctx, { reruns: opts.runs - 1 });
  if (result.kind === 'ran' && result.grade.namesWarning) warn(result.grade.namesWarning);
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
  // Runs are in the dataset's names (`<group>::<name>`); given lists are matched in that form.
  const groups = namedGroups(l.suite);
  const given = instanceLists(l);
  const q =
    given.failToPass && given.passToPass
      ? qualifyLists({ failToPass: given.failToPass, passToPass: given.passToPass }, result.runs, groups)
      : undefined;
  const derivation = deriveLists(
    result.runs,
    q ? { failToPass: q.failToPass, passToPass: q.passToPass } : given,
  );
  const lists = publishedLists(derivation, groups);
  const reasons: Rejection[] = [];
  if (lists.failingInGold.length > 0) {
    const timedOut = lists.timedOutInGold.length
      ? `; ${lists.timedOutInGold.length} of them timed out in every gold run: ${lists.timedOutInGold.slice(0, 5).join(', ')}`
      : '';
    const names = `${timedOut}${result.grade.namesWarning ? ` (${result.grade.namesWarning})` : ''}`;
    reasons.push({
      kind: 'gold-unresolved',
      message: `the gold configuration fails ${lists.failingInGold.length} listed test(s): ${lists.failingInGold.slice(0, 5).join(', ')}${names}`,
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
  if (reasons.length > 0) return { ok: false, reasons, infra: false, dropped: lists.dropped };
  return {
    ok: true,
    instance: { ...l.instance, FAIL_TO_PASS: lists.failToPass, PASS_TO_PASS: lists.passToPass },
    flaky: lists.flaky,
    derived: lists.derived,
    dropped: lists.dropped,
    matrixFlaky: result.grade.flaky.map((f) => ({ ...f, id: datasetNameOf(f.id, groups) })),
  };
}
