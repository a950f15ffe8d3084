/** Small builders for the set-queue unit tests: items by repository names, and one step of the loop. */
import {
  type EvaluationResult,
  enqueue,
  nextActions,
  type QueueAction,
  type QueueItem,
  type QueueOptions,
  type QueueState,
  recordResult,
} from '../../src/core/set-queue/queue-state.ts';

export const OPTS: QueueOptions = { speculation: 4, retries: 1 };

/** A set with one member per repository (`acme/<name>`), on `main` unless `name@branch`. */
export function item(id: string, repos: string[], wiringRepos?: string[]): QueueItem {
  return {
    id,
    enqueuedAt: 0,
    members: repos.map((r, i) => {
      const [name, branch] = r.split('@') as [string, string | undefined];
      return { pull: `acme/${name}#${i + 1}`, repo: `acme/${name}`, baseBranch: branch ?? 'main' };
    }),
    ...(wiringRepos ? { wiringRepos: wiringRepos.map((r) => `acme/${r}`) } : {}),
  };
}

export function queued(s: QueueState, ...items: QueueItem[]): QueueState {
  return items.reduce(enqueue, s);
}

/** nextActions, keeping the state in `box` so tests read like the App's loop. */
export function step(box: { s: QueueState }, opts: QueueOptions = OPTS): QueueAction[] {
  const { state, actions } = nextActions(box.s, opts);
  box.s = state;
  return actions;
}

export function result(
  box: { s: QueueState },
  itemId: string,
  ahead: string[],
  outcome: EvaluationResult['outcome'],
  failedConfigurations?: string[],
): void {
  box.s = recordResult(box.s, itemId, ahead, {
    outcome,
    ...(failedConfigurations ? { failedConfigurations } : {}),
  });
}

/** `evaluate a [b,c]`, `land a`, `evict a`, `cancel a [b]`: actions in one line each, for toEqual. */
export function brief(actions: QueueAction[]): string[] {
  return actions.map((a) => {
    if (a.kind === 'land') return `land ${a.itemId}`;
    if (a.kind === 'evict') return `evict ${a.itemId}`;
    const ahead = `[${a.ahead.join(',')}]`;
    if (a.kind === 'cancel') return `cancel ${a.itemId} ${ahead}`;
    return `evaluate ${a.itemId} ${ahead}${a.diagnostic ? ' alone' : ''}`;
  });
}
