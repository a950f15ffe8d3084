/**
 * The verdict for one merge group: the linked set of the queued PR, with the queue's repository
 * at the merge group's head commit exactly as GitHub built it (base + the queued PRs; nothing is
 * applied on top) and the other members at their heads merged onto their bases, through the
 * same corridor as a PR's evaluation (`evaluations/evaluate-set.ts`) and `report/`. Returns the check's conclusion and text, or undefined when aborted; it never
 * throws: GitHub or engine trouble is an infrastructure outcome.
 *
 * The matrix: the queue only needs the gate, `resolved`, which is judged on the full
 * configuration (queued commit + the other heads), with tests classified by the all-base run
 * when the suite has no F2P/P2P lists. `leave-one-out` is the smallest existing mode holding
 * both (base and full; for two members it is the same four runs as `full`): the partial runs it
 * adds are informational and never change the conclusion, and `tandem.yml`'s `matrix` or a
 * `/tandem matrix` request, which serve the PR comment's jointly-necessary analysis, do not
 * apply to the queue, whose throughput matters more.
 */

import type { CheckRunOutput } from '../../core/check-run-output.ts';
import { InputError } from '../../core/errors.ts';
import type { MatrixMode } from '../../core/matrix-mode.ts';
import type { MergeGroup } from '../../core/merge-group.schema.ts';
import type { OrgConfig } from '../../core/org-config.schema.ts';
import { pullKey } from '../../core/pull-ref.ts';
import type { CheckConclusion } from '../../github/check-runs.ts';
import { type LinkedChangeView, renderInvalidConfig } from '../../report/linked-change.ts';
import {
  type MergeGroupLabel,
  renderMergeGroupError,
  renderMergeGroupReport,
  renderMergeGroupSkipped,
} from '../../report/merge-group-check.ts';
import { evaluateSet, type SetOutcome, type SetSkip } from '../evaluations/evaluate-set.ts';
import { publicFailureMessage } from '../evaluations/failure-message.ts';
import type { OrgConfigCache } from '../evaluations/org-config-cache.ts';
import type { Executor } from '../executors/executor.ts';
import type { GitHubPort } from '../port/github-port.ts';
import type { Store } from '../store/store.ts';

/** See the module comment: the gate needs base and full, nothing more. */
export const MERGE_GROUP_MATRIX: MatrixMode = 'leave-one-out';

export interface MergeGroupDeps {
  store: Store;
  executor: Executor;
  configs: OrgConfigCache;
  log: { info: (o: object, m: string) => void; warn: (o: object, m: string) => void };
}

export interface MergeGroupOutcome {
  conclusion: CheckConclusion;
  output: CheckRunOutput;
}

export function labelOf(g: MergeGroup): MergeGroupLabel {
  return {
    repo: `${g.owner}/${g.repo}`,
    headSha: g.headSha,
    baseBranch: g.baseBranch,
    pullNumber: g.pullNumber,
  };
}

export async function evaluateMergeGroup(
  deps: MergeGroupDeps,
  gh: GitHubPort,
  group: MergeGroup,
  signal: AbortSignal,
): Promise<MergeGroupOutcome | undefined> {
  const label = labelOf(group);
  const skip = (title: string, reason: string): MergeGroupOutcome => ({
    conclusion: 'neutral',
    output: renderMergeGroupSkipped(label, title, reason),
  });
  const fail = (view: LinkedChangeView | undefined, e: unknown, message: string): MergeGroupOutcome => {
    deps.log.warn({ mergeGroup: group.headRef, err: message }, 'merge group evaluation failed');
    const kind = e instanceof InputError ? 'suite' : 'infrastructure';
    return { conclusion: 'failure', output: renderMergeGroupError(label, view, message, kind) };
  };
  let outcome: SetOutcome;
  try {
    outcome = await evaluateSet(
      deps,
      gh,
      {
        installationId: group.installationId,
        org: group.owner,
        repo: label.repo,
        // Not an evaluation of the store's table: nothing is handed off or resumed by this id.
        evaluationId: 0,
        matrix: MERGE_GROUP_MATRIX,
        pinned: [{ repo: label.repo, base: group.baseSha, head: group.headSha }],
        seedFor: (config) => seedOf(group, config.executor),
        onSet: async (set) => {
          const seed = pullKey({ owner: group.owner, repo: group.repo, number: group.pullNumber ?? 0 });
          if (set.members.some((m) => pullKey(m.ref) === seed)) return undefined;
          return {
            title: 'no pull request known',
            reason: `Pull request ${seed}, which this merge group was built for, is not an open pull request the App can see, so there is no linked change to evaluate.`,
          };
        },
        name: (name) => `merge group ${label.repo}@${group.headSha.slice(0, 7)} (${name})`,
      },
      signal,
    );
  } catch (e) {
    // GitHub trouble before the set was known.
    return signal.aborted ? undefined : fail(undefined, e, publicFailureMessage(e, []));
  }
  switch (outcome.kind) {
    case 'config':
      if (outcome.load.kind === 'missing')
        return skip(
          'no tandem.yml',
          `The organization has no \`.github/tandem.yml\` the App can read, so no suite covers ${label.repo}.`,
        );
      return {
        conclusion: 'failure',
        output: renderInvalidConfig(group.owner, outcome.load.field, outcome.load.message),
      };
    case 'no-suite':
      return skip('no suite', `No suite in \`tandem.yml\` covers ${label.repo}.`);
    case 'skipped':
      return skip(outcome.skip.title, outcome.skip.reason);
    case 'aborted':
      return undefined;
    case 'failed':
      return fail(outcome.view, outcome.error, outcome.message);
    case 'done':
      deps.log.info({ mergeGroup: group.headRef, outcome: outcome.report.outcome }, 'merge group evaluated');
      return {
        conclusion: outcome.report.outcome === 'resolved' ? 'success' : 'failure',
        output: renderMergeGroupReport(label, outcome.view, outcome.report, outcome.config.reveal),
      };
  }
}

/** The queued PR the set is walked from, or why the queue is not gated. */
function seedOf(group: MergeGroup, executor: OrgConfig['executor']): string | SetSkip {
  if (executor === 'actions')
    // The hand-off to the evaluator's workflow is keyed on PR evaluations; not built for queues yet.
    return {
      title: 'executor: actions',
      reason:
        'Merge groups are evaluated on the App host only; this organization runs evaluations in its evaluator workflow (`executor: actions`), so the queue is not gated by Tandem. The pull requests’ own `Tandem` checks still apply.',
    };
  if (group.pullNumber === undefined)
    return {
      title: 'no pull request',
      reason: `The merge group's ref ${group.headRef} does not name a pull request (\`gh-readonly-queue/<branch>/pr-<number>-<sha>\`), so there is no linked change to evaluate.`,
    };
  return pullKey({ owner: group.owner, repo: group.repo, number: group.pullNumber });
}
