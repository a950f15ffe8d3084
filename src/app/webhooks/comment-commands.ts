/**
 * `/tandem run [--fresh] | matrix full | link | unlink | merge` from users with write access, acknowledged
 * with a reaction (👍 done, 😕 refused; a reader gets 😕 and nothing else). `/tandem link` is this
 * PR needing the other one; it joins the other's set only when the commenter may write there
 * too. `/tandem merge` puts the linked change in the merge queue (`merge-command/queue-command.ts`,
 * which checks the requester's rights on every member), or, for an organization on `executor:
 * actions`, merges it member by member (`merge-set.ts`), and answers in its own comment on every
 * member; a second one while a merge of the same set runs gets 😕. `/tandem dequeue` takes the set
 * out of the queue (😕 when it is not in it). A run on heads that already have a published result reuses it
 * (`run-evaluation.ts`) unless it says `--fresh`.
 */
import { parseCommands } from '../../core/link-parser.ts';
import { pairKey } from '../../core/linked-set.ts';
import type { MatrixMode } from '../../core/matrix-mode.ts';
import { suiteFor } from '../../core/org-config.schema.ts';
import { pullKey } from '../../core/pull-ref.ts';
import { type RepoParts, repoFullName } from '../../core/repo-name.ts';
import type { Ask } from '../delivered-requests.ts';
import type { ClaimTransaction } from '../delivery-claims.ts';
import type { DeliveryClaim } from '../evaluation-requests.ts';
import { mergeLinkedSet } from '../merge-command/merge-set.ts';
import { dequeueLinkedSet, enqueueLinkedSet } from '../merge-command/queue-command.ts';
import type { GitHubPort } from '../port/github-port.ts';
import { queueClient } from '../port/queue-client.ts';
import type { TandemService } from '../service.ts';

export interface CommandDelivery {
  /** The comment's delivery: claimed with what the comment records (none: a test's direct call). */
  delivery?: DeliveryClaim;
  /** Runs what follows the record (reactions, a merge, a dequeue); default: awaited in place. */
  later?: (fn: () => Promise<void>) => void;
}

/**
 * A writer's comment records, in the one transaction that claims its delivery, who may write
 * (their consent to links), the links it adds or removes and the evaluations it asks for
 * (`requestDelivered`); a failure there commits nothing and the delivery can come again. The
 * 👍, `/tandem dequeue` and `/tandem merge` follow the commit: their work is GitHub's (reactions,
 * merges, answers), kept at most once on purpose, as is a refused reader's 😕 (claimed first).
 */
export async function handleCommandComment(
  tandem: Pick<
    TandemService,
    'store' | 'deliveries' | 'requestDelivered' | 'linkedSet' | 'whileMerging' | 'log' | 'queue' | 'configFor'
  >,
  gh: GitHubPort,
  installationId: number,
  repo: RepoParts,
  number: number,
  comment: { id: number; body: string; author: string },
  opts: CommandDelivery = {},
): Promise<void> {
  const commands = parseCommands(comment.body, repo);
  if (commands.length === 0) return;
  const { delivery } = opts;
  // A redelivery is answered before GitHub is asked anything.
  if (delivery && (await tandem.deliveries.seen(delivery))) return;
  const name = repoFullName(repo);
  if (!(await gh.canWrite(name, comment.author))) {
    if (!delivery || (await tandem.deliveries.claimFirst(delivery)))
      await gh.react(name, comment.id, 'confused');
    return;
  }
  const self = pullKey({ ...repo, number });
  let matrix: MatrixMode | undefined;
  let evaluate = false;
  let fresh = false;
  const detached: string[] = [];
  const linkChanges: Array<(tx: ClaimTransaction) => Promise<void>> = [];
  for (const c of commands) {
    if (c.kind === 'merge' || c.kind === 'dequeue') continue;
    evaluate = true;
    const other = c.kind === 'link' || c.kind === 'unlink' ? pullKey(c.ref) : undefined;
    // Who linked decides where the link counts backwards: the target's set takes this PR in only
    // when they may write to the target's repository (`linking/link-consent.ts`).
    if (c.kind === 'link' && other)
      linkChanges.push(
        async (tx) => await tx.links.addManual(self, other, pairKey(self, other), comment.author),
      );
    else if (c.kind === 'unlink' && other) {
      linkChanges.push(async (tx) => await tx.links.remove(self, other, pairKey(self, other)));
      detached.push(other);
    } else if (c.kind === 'matrix') matrix = c.mode;
    else if (c.kind === 'run' && c.fresh) fresh = true;
  }
  const asks: Ask[] = evaluate ? [{ seed: self, matrix, fresh }] : [];
  // The PR unlinked from this one now forms its own set, which needs its own verdict.
  for (const other of detached)
    if ((await tandem.store.pulls.get(other))?.state === 'open') asks.push({ seed: other });
  const recorded = await tandem.requestDelivered(delivery, installationId, asks, async (tx) => {
    await tx.links.recordWriter(name, comment.author, true);
    for (const change of linkChanges) await change(tx);
  });
  if (!recorded) return;
  const rest = () => answerCommands(tandem, gh, installationId, repo, self, comment, commands);
  if (opts.later) opts.later(rest);
  else await rest();
}

/** After the record: the 👍, then `/tandem dequeue` and `/tandem merge` (GitHub's work). */
async function answerCommands(
  tandem: Pick<TandemService, 'store' | 'linkedSet' | 'whileMerging' | 'log' | 'queue' | 'configFor'>,
  gh: GitHubPort,
  installationId: number,
  repo: RepoParts,
  self: string,
  comment: { id: number; author: string },
  commands: ReturnType<typeof parseCommands>,
): Promise<void> {
  const name = repoFullName(repo);
  await gh.react(name, comment.id, '+1');
  if (commands.some((c) => c.kind === 'dequeue')) {
    const removed = await dequeueLinkedSet(
      tandem.queue,
      tandem.store,
      queueClient(gh),
      self,
      comment.author,
      tandem.log,
    );
    if (!removed) await gh.react(name, comment.id, 'confused');
  }
  if (commands.some((c) => c.kind === 'merge')) {
    const linked = await tandem.linkedSet(self);
    const request = { seed: self, linked, requestedBy: comment.author };
    // The queue evaluates on the App host; an organization evaluating in its evaluator's workflow
    // (`executor: actions`), or one that asks for it (`queue.sequential`), merges its evaluated set
    // member by member, as before the queue.
    const config = await tandem.configFor(gh, installationId, repo.owner);
    if (config?.executor !== 'actions' && config?.queue.sequential !== true) {
      const queued = await enqueueLinkedSet(
        tandem.queue,
        tandem.store,
        queueClient(gh),
        { ...request, installationId, suiteRepos: (config && suiteFor(config, name)?.repos) || [] },
        tandem.log,
      );
      if (queued === 'refused') await gh.react(name, comment.id, 'confused');
      return;
    }
    const result = await tandem.whileMerging(linked, () =>
      mergeLinkedSet(tandem.store, gh, request, tandem.log),
    );
    if (result === 'busy') await gh.react(name, comment.id, 'confused');
  }
}
