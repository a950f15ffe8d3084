/**
 * Lanes through the repositories a set's evaluation checks out without changing (issue 28): set
 * A = acme/schema#1 alone, set B = acme/api#1 alone. They share no repository, but the suite
 * covers both, so B's evaluation checks acme/schema out (its context, wired into acme/api): B
 * must be tested on top of A, with acme/schema at A's tested commit, and land after it.
 */
import { describe, expect, it } from 'vitest';
import type { LinkedChangeSpec } from '../../src/app/executors/executor.ts';
import { B_API, head, merge, mergeComment, passAll, queueWorld, tipOf } from '../helpers/set-queue-world.ts';
import { openPull, SCHEMA_OK, settle, useWorld, type World } from './app-harness.ts';

const startWorld = useWorld();

async function openUnlinked(w: World): Promise<void> {
  await openPull(w, 'schema', SCHEMA_OK, 'Adds total.');
  await openPull(w, 'api', B_API, 'Adds b.');
}

const contextRef = (spec: LinkedChangeSpec, repo: string) => spec.context.find((c) => c.repo === repo)?.ref;

describe('App: the linked-set merge queue through wiring edges', () => {
  it('tests a set on top of the set ahead that changes a repository it only checks out', async () => {
    const { w, executor } = await queueWorld(startWorld, passAll, undefined, { open: openUnlinked });
    executor.hold();
    await merge(w, 'schema', 1);
    await executor.started(1);
    await merge(w, 'api', 1);
    await executor.started(2);
    executor.release();
    await settle(w);

    const [a, b] = executor.queueSpecs();
    expect(a!.name).toMatch(/^merge queue q1 \(/);
    // B waited in A's lane: evaluated on top of it, acme/schema taken at A's tested commit.
    expect(b!.name).toMatch(/^merge queue q2 on q1 \(/);
    expect(contextRef(b!, 'acme/schema')).toBe(head(a!, 'acme/schema'));
    expect(await tipOf(w, 'schema')).toBe(head(a!, 'acme/schema'));
    expect(await tipOf(w, 'api')).toBe(head(b!, 'acme/api'));
    expect(mergeComment(w, 'api', 1)).toContain('Landed from the merge queue');
  });
});
