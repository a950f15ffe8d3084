/**
 * PRs entering the link index: every PR a webhook or a resolution reads is recorded with the
 * links its title and body make, so the index (`indexed-set.ts`) names sets from the same facts
 * the evaluation (`resolve-set.ts`) reads.
 */
import { parseLinks } from '../../core/link-parser.ts';
import { pullKey } from '../../core/pull-ref.ts';
import type { PullInfo } from '../../core/pull-request.schema.ts';
import type { GitHubPort } from '../port/github-port.ts';
import type { Store } from '../store/store.ts';
import { branchCandidate, refreshBranchConsent } from './branch-grouping.ts';
import { refreshConsent } from './link-consent.ts';

/** Records a PR (from a webhook or the API) in the link index. */
export async function recordPull(store: Store, pull: PullInfo, installationId: number): Promise<void> {
  await store.pulls.upsert({
    ...pull.ref,
    installationId,
    state: pull.state,
    headSha: pull.headSha,
    headRef: pull.headRef,
    headRepo: pull.headRepo,
    baseRef: pull.baseRef,
    links: parseLinks(pull.title, pull.body, pull.ref),
    author: pull.author,
    visibility: pull.visibility,
  });
}

/**
 * An open PR's webhook, before its evaluation is queued: recorded (whether its links count for
 * the PRs they point at is known before the set is named), marked seen from its creation when
 * opened (every link to it then reaches the index by webhook, no search needed), and who may
 * confirm its links asked of GitHub. That answer may fail: the evaluation asks again.
 */
export async function recordOpenPull(
  gh: GitHubPort,
  store: Store,
  pull: PullInfo,
  installationId: number,
  opened: boolean,
  log: { warn: (o: object, m: string) => void },
): Promise<void> {
  await recordPull(store, pull, installationId);
  if (opened) await store.linkSearches.openedSeen(pullKey(pull.ref));
  try {
    await refreshConsent(gh, store, pullKey(pull.ref), pull.author);
    await refreshBranchConsent(gh, store, branchCandidate(pull));
  } catch (e) {
    log.warn({ err: e, pull: pullKey(pull.ref) }, 'could not check who may confirm its links');
  }
}
