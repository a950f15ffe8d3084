/**
 * `merge_group` webhooks as the App reads them: the queue ref names the PR, the fields Tandem
 * relies on are validated, a bad payload is logged and ignored; the queue withdraws a group.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { EvaluationQueue } from '../../src/app/evaluations/evaluation-queue.ts';
import { onMergeGroup } from '../../src/app/webhooks/merge-group-handler.ts';
import type { MergeGroup } from '../../src/core/merge-group.schema.ts';
import { mergeGroupKey, parseMergeGroupEvent, parseQueueRef } from '../../src/core/merge-group.schema.ts';
import { examplePayload } from '../support/webhook-sender.ts';

/** The webhooks-examples payload (it carries no installation) as GitHub sends it to an App. */
function payload(patch: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...examplePayload('merge_group', 'checks_requested'), installation: { id: 7 }, ...patch };
}

describe('parseQueueRef', () => {
  it('reads the PR number and base branch of a merge queue ref', () => {
    expect(parseQueueRef(`refs/heads/gh-readonly-queue/main/pr-123-${'a'.repeat(40)}`)).toEqual({
      baseBranch: 'main',
      pullNumber: 123,
    });
    expect(parseQueueRef(`refs/heads/gh-readonly-queue/release/2.x/pr-9-${'b'.repeat(40)}`)).toEqual({
      baseBranch: 'release/2.x',
      pullNumber: 9,
    });
  });

  it('refuses refs that are not a merge queue branch', () => {
    for (const ref of [
      'refs/heads/main',
      `refs/heads/gh-readonly-queue/main/pr-0-${'a'.repeat(40)}`,
      `refs/heads/gh-readonly-queue/main/pr-12-${'a'.repeat(7)}`,
      `refs/heads/gh-readonly-queue/main/pr-x-${'a'.repeat(40)}`,
      `refs/heads/gh-readonly-queue/pr-12-${'a'.repeat(40)}`,
    ])
      expect(parseQueueRef(ref), ref).toBeUndefined();
  });
});

describe('parseMergeGroupEvent', () => {
  it("takes the example payload's group, repository and installation", () => {
    const e = parseMergeGroupEvent(payload());
    expect(e).toEqual({
      ok: true,
      action: 'checks_requested',
      group: {
        owner: 'octo-org',
        repo: 'octo-repo',
        installationId: 7,
        headSha: '2ffea6db159f6b6c47a24e778fb9ef40cf6b1c7d',
        headRef: 'refs/heads/gh-readonly-queue/main/pr-104-929f8209d40f77f4abc622a499c93a83babdbe64',
        baseSha: '380387fbc80638b734a49e1be1c4dfec1c01b33c',
        baseBranch: 'main',
        pullNumber: 104,
      },
    });
    if (e.ok)
      expect(mergeGroupKey(e.group)).toBe('octo-org/octo-repo@2ffea6db159f6b6c47a24e778fb9ef40cf6b1c7d');
  });

  it('reads a destroyed group with its reason', () => {
    const e = parseMergeGroupEvent(payload({ action: 'destroyed', reason: 'invalidated' }));
    expect(e).toMatchObject({
      ok: true,
      action: 'destroyed',
      reason: 'invalidated',
      group: { pullNumber: 104 },
    });
  });

  it('keeps a group whose ref names no PR, without a number', () => {
    const p = payload();
    (p.merge_group as Record<string, unknown>).head_ref = 'refs/heads/some-other-queue';
    expect(parseMergeGroupEvent(p)).toMatchObject({ ok: true, group: { pullNumber: undefined } });
  });

  it('names the field a payload lacks', () => {
    const noInstallation = payload();
    delete noInstallation.installation;
    expect(parseMergeGroupEvent(noInstallation)).toEqual({
      ok: false,
      error: expect.stringMatching(/^installation: /),
    });
    const badSha = payload();
    (badSha.merge_group as Record<string, unknown>).head_sha = 'HEAD';
    expect(parseMergeGroupEvent(badSha)).toEqual({
      ok: false,
      error: 'merge_group.head_sha: expected a 40-character commit SHA',
    });
    expect(parseMergeGroupEvent(payload({ action: 'enqueued' }))).toMatchObject({
      ok: false,
      error: /^action: /,
    });
    expect(parseMergeGroupEvent(null)).toMatchObject({ ok: false });
  });
});

describe('onMergeGroup', () => {
  function recorder() {
    const calls: string[] = [];
    const warnings: object[] = [];
    const gate = {
      request: async (g: MergeGroup) => {
        calls.push(`request ${g.headSha}`);
      },
      destroy: (g: MergeGroup, reason: string) => {
        calls.push(`destroy ${g.headSha} ${reason}`);
      },
    };
    const log = { warn: (o: object) => warnings.push(o) };
    return { calls, warnings, gate, log };
  }

  it('asks the gate for a check, and withdraws it when the group is destroyed', async () => {
    const r = recorder();
    await onMergeGroup(r.gate, payload(), r.log);
    await onMergeGroup(r.gate, payload({ action: 'destroyed', reason: 'dequeued' }), r.log);
    const sha = '2ffea6db159f6b6c47a24e778fb9ef40cf6b1c7d';
    expect(r.calls).toEqual([`request ${sha}`, `destroy ${sha} dequeued`]);
    expect(r.warnings).toEqual([]);
  });

  it('logs and ignores a payload without the fields it needs, without throwing', async () => {
    const r = recorder();
    const bad = payload();
    delete (bad.merge_group as Record<string, unknown>).base_sha;
    await expect(onMergeGroup(r.gate, bad, r.log)).resolves.toBeUndefined();
    await expect(onMergeGroup(r.gate, 'not json', r.log)).resolves.toBeUndefined();
    expect(r.calls).toEqual([]);
    expect(r.warnings).toEqual([
      { err: expect.stringContaining('merge_group.base_sha') },
      { err: expect.any(String) },
    ]);
  });
});

describe('EvaluationQueue.cancel', () => {
  it('drops a waiting item and aborts a running one', async () => {
    const dropped: string[] = [];
    const aborted: string[] = [];
    let started!: () => void;
    const running = new Promise<void>((ok) => {
      started = ok;
    });
    const q = new EvaluationQueue<string>({
      concurrency: 1,
      debounceMs: 0,
      onDrop: (item) => dropped.push(item),
      run: (item, signal) =>
        new Promise<void>((ok) => {
          started();
          signal.addEventListener('abort', () => {
            aborted.push(item);
            ok();
          });
        }),
    });
    q.push('a', 'a');
    q.push('b', 'b');
    await running;
    // `a` runs (concurrency 1); `b` waits for the slot.
    q.cancel('b');
    expect(dropped).toEqual(['b']);
    q.cancel('a');
    await q.idle();
    expect(aborted).toEqual(['a']);
    expect(q.size).toBe(0);
  });
});

describe('app.yml', () => {
  it('subscribes to merge_group with the read permission GitHub requires for it', () => {
    const manifest = parse(readFileSync(join(import.meta.dirname, '..', '..', 'app.yml'), 'utf8')) as {
      default_events: string[];
      default_permissions: Record<string, string>;
    };
    expect(manifest.default_events).toContain('merge_group');
    expect(manifest.default_permissions).toMatchObject({ merge_queues: 'read', checks: 'write' });
  });
});
