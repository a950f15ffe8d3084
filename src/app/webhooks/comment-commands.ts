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
import { pullKey } from '../../core/pull-ref.ts';
import { type RepoParts, repoFullName } from '../../core/repo-name.ts';
import { mergeLinkedSet } from '../merge-command/merge-set.ts';
import { dequeueLinkedSet, enqueueLinkedSet } from '../merge-command/queue-command.ts';
import type { GitHubPort } from '../port/github-port.ts';
import { queueClient } from '../port/queue-client.ts';
import type { TandemService } from '../service.ts';

export async function handleCommandComment(
  tandem: Pick<
    TandemService,
    'store' | 'request' | 'linkedSet' | 'whileMerging' | 'log' | 'queue' | 'configFor'
  >,
  gh: GitHubPort,
  installationId: number,
  repo: RepoParts,
  number: number,
  comment: { id: number; body: string; author: string },
): Promise<void> {
  const commands = parseCommands(comment.body, repo);
  if (commands.length === 0) return;
  const name = repoFullName(repo);
  if (!(await gh.canWrite(name, comment.author))) {
    await gh.react(name, comment.id, 'confused');
    return;
  }
  await tandem.store.links.recordWriter(name, comment.author, true);
  const self = pullKey({ ...repo, number });
  let matrix: MatrixMode | undefined;
  let evaluate = false;
  let fresh = false;
  const detached: string[] = [];
  for (const c of commands) {
    if (c.kind === 'merge' || c.kind === 'dequeue') continue;
    evaluate = true;
    // Who linked decides where the link counts backwards: the target's set takes this PR in only
    // when they may write to the target's repository (`linking/link-consent.ts`).
    if (c.kind === 'link')
      await tandem.store.links.addManual(self, pullKey(c.ref), pairKey(self, pullKey(c.ref)), comment.author);
    else if (c.kind === 'unlink') {
      await tandem.store.links.remove(self, pullKey(c.ref), pairKey(self, pullKey(c.ref)));
      detached.push(pullKey(c.ref));
    } else if (c.kind === 'matrix') matrix = c.mode;
    else if (c.kind === 'run' && c.fresh) fresh = true;
  }
  await gh.react(name, comment.id, '+1');
  if (evaluate) {
    await tandem.request(self, installationId, matrix, { fresh });
    // The PR unlinked from this one now forms its own set, which needs its own verdict.
    for (const other of detached)
      if ((await tandem.store.pulls.get(other))?.state === 'open')
        await tandem.request(other, installationId);
  }
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
        { ...request, installationId },
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
