/**
 * Combines shard reports (`tandem eval --shard i/n`) into the report an unsharded run gives:
 * the raw runs are pooled and graded once, so F2P/P2P classification sees the all-base run
 * whichever shard ran it.
 */
import { InputError } from './errors.ts';
import { grade } from './grading.ts';
import { planMatrix } from './matrix-plan.ts';
import type { Report } from './report.schema.ts';
import type { ConfigurationRun } from './run.schema.ts';

/** `InputError.field` when the reports do not cover the matrix: a shard is missing. */
export const MISSING_SHARD_FIELD = 'shards';

export function combineShardReports(partials: ReadonlyArray<{ file: string; report: Report }>): Report {
  const first = partials[0];
  if (!first) throw new InputError('merge needs at least one partial report');
  const key = (r: Report) =>
    JSON.stringify([
      r.name,
      r.suite.hash,
      r.suite.imageId,
      r.matrix.requested,
      r.targets.map((t) => [t.repo, t.base.sha, t.head?.sha]),
    ]);
  const runs: ConfigurationRun[] = [];
  const seen = new Set<string>();
  for (const { file, report } of partials) {
    if (!report.partial)
      throw new InputError(`${file}: not a partial report (it has no "partial" field)`, file, 'partial');
    if (key(report) !== key(first.report)) {
      throw new InputError(
        `${file}: evaluates a different case, suite, image or SHAs than ${first.file}; shards must come from one plan`,
        file,
      );
    }
    for (const run of report.partial.runs) {
      const k = `${run.id}#${run.attempt}`;
      if (seen.has(k))
        throw new InputError(`${file}: configuration ${k} appears in more than one shard`, file);
      seen.add(k);
      runs.push(run);
    }
  }
  const r0 = first.report;
  const p0 = r0.partial!;
  const plan = planMatrix(
    r0.targets.map((t) => t.repo),
    r0.matrix.requested,
  );
  const missing = plan.configurations.filter((c) => !seen.has(`${c.id}#0`)).map((c) => c.id);
  if (missing.length > 0) {
    // field `shards`: what is wrong is the set of reports, not one file (the Action calls it infra).
    throw new InputError(
      `the partial reports do not cover configuration(s) ${missing.join(', ')}: a shard is missing`,
      undefined,
      MISSING_SHARD_FIELD,
    );
  }
  const graded = grade({
    plan,
    runs,
    groups: p0.groups,
    ...(p0.failToPass ? { failToPass: p0.failToPass } : {}),
    ...(p0.passToPass ? { passToPass: p0.passToPass } : {}),
    infraErrors: r0.targets.flatMap((t) => (t.error ? [t.error] : [])),
  });
  const { partial: _partial, ...meta } = r0;
  return {
    ...meta,
    ...graded,
    durationMs: Math.max(...partials.map((p) => p.report.durationMs)),
  };
}
