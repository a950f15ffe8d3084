/**
 * One prediction's outcome as its `report.json` entry: SWE-bench's fields (an empty patch is an
 * empty-patch instance, a patch that does not apply is unresolved with
 * `patch_successfully_applied: false`, only machinery failures are errors) and Tandem's beside them.
 */
import type { BenchInstance } from '../core/bench-instance.schema.ts';
import type {
  Diagnosis,
  InstanceReportEntry,
  PredictionOutcome,
  RepoApply,
} from '../core/bench-report.schema.ts';
import type { CandidateResult } from './evaluate-candidate.ts';
import type { PredictionPatches } from './prediction-patches.ts';

const noTests = () => ({
  FAIL_TO_PASS: { success: [], failure: [] },
  PASS_TO_PASS: { success: [], failure: [] },
  FAIL_TO_FAIL: { success: [], failure: [] },
  PASS_TO_FAIL: { success: [], failure: [] },
});

export function instanceEntry(args: {
  instance: BenchInstance;
  model: string;
  patches: PredictionPatches;
  /** Absent for an empty patch (nothing was run). */
  result?: CandidateResult;
  diagnosis?: Diagnosis;
  durationMs: number;
  /** Repositories the suite's groups test (per-repository metrics); failed when nothing was scored. */
  testedRepos?: string[];
}): InstanceReportEntry {
  const { instance, patches, result } = args;
  const languages = languagesOf(instance.metadata);
  const base = {
    instance_id: instance.instance_id,
    model_name_or_path: args.model,
    repo_count: instance.repos.length,
    ...(languages ? { languages } : {}),
    duration_ms: args.durationMs,
    ...(args.diagnosis ? { diagnosis: args.diagnosis } : {}),
  };
  const unscored = (
    outcome: PredictionOutcome,
    apply: RepoApply[],
    extra: { injected?: boolean; errors?: string[]; attempts?: number },
  ) => ({
    patch_is_None: patches.patchIsNone,
    patch_exists: patches.patchExists,
    patch_successfully_applied:
      outcome !== 'empty-patch' && apply.length > 0 && apply.every((a) => a.applied),
    resolved: false,
    tests_status: noTests(),
    tandem: {
      ...base,
      outcome,
      apply,
      test_patch_injected: extra.injected ?? true,
      f2p: { passed: 0, total: 0 },
      p2p: { passed: 0, total: 0 },
      fix_rate: 0,
      // Not resolved in every metric, so repository success too: an error must not drop out.
      repositories: (args.testedRepos ?? []).map((repo) => ({
        repo,
        f2p: { passed: 0, total: 0 },
        p2p: { passed: 0, total: 0 },
        f2pComplete: false,
        p2pPreserved: false,
        success: false,
      })),
      errors: extra.errors ?? [],
      attempts: extra.attempts ?? 0,
    },
  });
  if (!patches.patchExists || !result) return unscored('empty-patch', [], {});
  switch (result.kind) {
    case 'not-applied':
      return unscored('unresolved', result.apply, {});
    case 'injection-failed':
      return unscored('unresolved', result.apply, { injected: false, errors: [result.message] });
    case 'error':
      return unscored('error', result.apply, { errors: result.errors, attempts: result.attempts });
    case 'ran': {
      const r = result.report;
      const full = r.configurations.find((c) => c.role === 'full');
      return {
        patch_is_None: patches.patchIsNone,
        patch_exists: patches.patchExists,
        patch_successfully_applied: true,
        resolved: r.resolved,
        tests_status: r.tests_status,
        tandem: {
          ...base,
          outcome: r.resolved ? 'resolved' : 'unresolved',
          apply: result.apply,
          test_patch_injected: true,
          f2p: full?.f2p ?? { passed: 0, total: 0 },
          p2p: full?.p2p ?? { passed: 0, total: 0 },
          fix_rate: r.verdict.fixRate,
          repositories: r.repositories,
          errors: [],
          attempts: result.attempts,
          ...(result.grade.attemptsResolved.length > 1
            ? { attempts_resolved: result.grade.attemptsResolved }
            : {}),
          ...(result.grade.namesWarning ? { names_warning: result.grade.namesWarning } : {}),
          ...(result.grade.flaky.length ? { matrix_flaky: result.grade.flaky } : {}),
          report: r,
        },
      };
    }
  }
}

/** `metadata.languages`, else the union of `metadata.repositories[].languages` (as `tandem mine` writes). */
function languagesOf(metadata: Record<string, unknown>): string[] | undefined {
  if (Array.isArray(metadata.languages)) return metadata.languages.map(String);
  const repos = metadata.repositories;
  const list = Array.isArray(repos) ? repos : repos && typeof repos === 'object' ? Object.values(repos) : [];
  const found = list.flatMap((r) =>
    r && typeof r === 'object' && Array.isArray((r as { languages?: unknown }).languages)
      ? (r as { languages: unknown[] }).languages.map(String)
      : [],
  );
  return found.length ? [...new Set(found)].sort() : undefined;
}
