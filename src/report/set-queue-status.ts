/**
 * The linked-set merge queue's words (issue 28): one status per item, shown as the `Tandem queue`
 * check on each member and as the line of the members' merge comment. Each page gets its own
 * text: another set named on it (the blocking item, the set to blame) is named only when the page
 * may show it (core/page-privacy.ts); otherwise it is "another linked set".
 */

export type QueueStatusView =
  | { kind: 'refused'; reasons: string[] }
  | {
      kind: 'queued';
      position: number;
      of: number;
      waitingFor: string;
      blockedBy?: { set: string; why: string };
    }
  | { kind: 'landed'; landed: Array<{ pull: string; sha: string }>; windowMs: number }
  | { kind: 'evicted'; reason: string; failedConfigurations: string[]; blame?: string; alonePasses?: boolean }
  | {
      kind: 'landing-refused';
      at: string;
      reason: string;
      reverted: Array<{ pull: string; how: 'reset' | 'revert-commit' | 'revert-pr'; revertPull?: string }>;
      /** Members that landed and could not be undone: said, never hidden. */
      unreverted: Array<{ pull: string; reason: string }>;
      windowMs: number;
    }
  | {
      /** GitHub stopped answering mid-landing: no refusal; the item stays queued and is landed again. */
      kind: 'landing-interrupted';
      reason: string;
      members: Array<{ pull: string; standing: 'landed' | 'not-landed' | 'unknown'; sha?: string }>;
      retryInMs: number;
    }
  | { kind: 'dequeued'; by: string; why?: string };

export interface QueueStatusText {
  /** The check's title (one line) and the comment's first line. */
  title: string;
  /** The rest: the check's summary and the comment's body. */
  summary: string;
  conclusion?: 'success' | 'failure' | 'cancelled' | 'neutral';
}

const REVERT_WORDS = {
  reset: 'branch reset',
  'revert-commit': 'revert commit',
  'revert-pr': 'revert PR',
} as const;

/** `name(set)`: how this page names another set (its seed PR, or "another linked set"). */
export function renderQueueStatus(v: QueueStatusView, name: (set: string) => string): QueueStatusText {
  const setName = (s: string) => {
    const n = name(s);
    return n === s ? `${s}'s set` : n;
  };
  switch (v.kind) {
    case 'refused':
      return {
        title: '⛔ Not queued',
        summary: `The linked change did not enter the merge queue:\n${v.reasons.map((r) => `- ${r}`).join('\n')}`,
        conclusion: 'failure',
      };
    case 'queued': {
      const blocked = v.blockedBy ? ` Blocked by ${setName(v.blockedBy.set)}: ${v.blockedBy.why}.` : '';
      const waiting = v.waitingFor.replace(/\{\{([^}]+)\}\}/g, (_m, key: string) => setName(key));
      return {
        title: `⏳ In the merge queue: position ${v.position} of ${v.of}`,
        summary: `Waiting for ${waiting}.${blocked}`,
      };
    }
    case 'landed':
      return {
        title: '✅ Landed from the merge queue',
        summary: `Every member landed as the commit it was tested as:\n${v.landed
          .map((l) => `- ${name(l.pull)} as \`${l.sha.slice(0, 7)}\``)
          .join('\n')}`,
        conclusion: 'success',
      };
    case 'evicted': {
      const configs =
        v.failedConfigurations.length > 0
          ? `configuration ${v.failedConfigurations.map((c) => `\`${c}\``).join(', ')} failed`
          : v.reason;
      const blame = v.blame
        ? `; passes alone, fails together with ${setName(v.blame)}`
        : v.alonePasses === false
          ? '; it fails alone too'
          : '';
      return {
        title: '⛔ Left the merge queue',
        summary: `${configs}${blame}. Nothing of this linked change landed; fix it and comment \`/tandem merge\` again.`,
        conclusion: 'failure',
      };
    }
    case 'landing-refused': {
      const reverted =
        v.reverted.length === 0
          ? 'nothing had landed before it'
          : `reverted: ${v.reverted
              .map(
                (r) =>
                  // The revert PR is in the member's repository: named wherever the member is.
                  `${name(r.pull)} (${REVERT_WORDS[r.how]}${r.revertPull && name(r.pull) === r.pull ? ` ${r.revertPull}` : ''})`,
              )
              .join(', ')}`;
      const left =
        v.unreverted.length === 0
          ? ''
          : `\n\n🚨 **Still landed, not undone:** ${v.unreverted.map((u) => `${name(u.pull)} (${u.reason})`).join(', ')}.`;
      // A revert PR undoes its member only once merged: until then the set is half-landed.
      const offered = v.reverted.some((r) => r.how === 'revert-pr');
      return {
        title:
          v.unreverted.length > 0
            ? '🚨 Landing refused: half-landed'
            : offered
              ? '🚨 Landing refused: half-landed until the revert PR is merged'
              : '🚨 Landing refused: nothing stays half-landed',
        summary: `GitHub refused to land ${name(v.at)}: ${v.reason}. The members landed before it were undone (${reverted}); half-landed for ${Math.round(v.windowMs)} ms.${offered ? ' A revert PR is offered where the branch moved after the landing or the App may not move it: merge it to finish the undo.' : ''}${left}`,
        conclusion: 'failure',
      };
    }
    case 'landing-interrupted': {
      const standing = (m: { pull: string; standing: string; sha?: string }) =>
        m.standing === 'landed'
          ? `- ${name(m.pull)}: landed as \`${(m.sha ?? '').slice(0, 7)}\``
          : m.standing === 'not-landed'
            ? `- ${name(m.pull)}: not landed yet`
            : `- ${name(m.pull)}: unknown (its branch could not be read, or moved elsewhere)`;
      return {
        title: '⚠️ Landing interrupted: GitHub did not answer',
        summary: `Infrastructure trouble, not a verdict (${v.reason}). The set stays in the queue; nothing was reverted, and landing is tried again in ${Math.round(v.retryInMs / 1000)} s:\n${v.members.map(standing).join('\n')}`,
      };
    }
    case 'dequeued':
      return {
        title: '⏹ Removed from the merge queue',
        summary: `${v.why ?? `\`/tandem dequeue\` by ${v.by}`}: nothing of this linked change landed.`,
        conclusion: 'cancelled',
      };
  }
}

/** The merge comment: the status line, then the summary. */
export function queueCommentBody(t: QueueStatusText): string {
  return `**${t.title}**\n\n${t.summary}`;
}
