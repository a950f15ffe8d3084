/**
 * `/tandem` commands on their own: a writer's commands change the link index and request the
 * right evaluations (the unlinked PR gets its own), a reader is refused with 😕 and changes
 * nothing. Real SQLite store, real HTTP to the GitHub stand-in for permissions and reactions.
 */
import { describe, expect, it } from 'vitest';
import type { Ask } from '../../src/app/delivered-requests.ts';
import { DeliveryClaims } from '../../src/app/delivery-claims.ts';
import { octokitPort } from '../../src/app/port/octokit-port.ts';
import type { Store } from '../../src/app/store/store.ts';
import { handleCommandComment } from '../../src/app/webhooks/comment-commands.ts';
import type { MatrixMode } from '../../src/core/matrix-mode.ts';
import type { OrgConfig } from '../../src/core/org-config.schema.ts';
import type { StandIn } from '../support/github-standin/index.ts';
import { addApiPull, publishedEvaluation, standInClient, useStandIn, useTempStore } from './app-fixtures.ts';

const use = useStandIn('tandem-commands-');
const tempStore = useTempStore('tandem-commands-');
let standIn: StandIn | undefined;

async function world() {
  standIn = await use.start();
  standIn.addRepo({ owner: 'acme', name: 'api' });
  standIn.setPermission('acme', 'api', 'writer', 'write');
  standIn.setPermission('acme', 'api', 'reader', 'read');
  addApiPull(standIn, 'a'.repeat(40), 'b'.repeat(40));
  const s = await tempStore.open();
  for (const [repo, number] of [
    ['api', 1],
    ['schema', 2],
  ] as const)
    await s.pulls.upsert({
      owner: 'acme',
      repo,
      number,
      installationId: 7,
      state: 'open',
      headSha: 'a'.repeat(40),
      headRef: 'feature',
      baseRef: 'main',
      links: [],
    });
  const requests: Array<{ seed: string; installationId: number; matrix: MatrixMode | undefined }> = [];
  const tandem = {
    store: s,
    deliveries: new DeliveryClaims(s),
    // What the service stores in one transaction: the command's records, then each ask.
    requestDelivered: async (
      _delivery: unknown,
      installationId: number,
      asks: readonly Ask[],
      record?: (tx: Store) => Promise<void>,
    ) => {
      await s.transaction(async (tx) => record?.(tx));
      for (const a of asks) requests.push({ seed: a.seed, installationId, matrix: a.matrix });
      return true;
    },
    whileMerging: <T>(_members: readonly string[], merge: () => Promise<T>) => merge(),
    linkedSet: async (seed: string) => [seed],
    log: { info: () => {}, warn: () => {}, error: () => {} },
    // An organization on `executor: actions`: `/tandem merge` merges member by member (the
    // merge queue, for the others, is the App tests').
    queue: undefined as never,
    configFor: async () => ({ executor: 'actions' }) as OrgConfig,
  };
  const gh = octokitPort(standInClient(standIn));
  const comment = (user: string, body: string) => {
    const c = standIn!.addComment('acme', 'api', 1, { body, user });
    return { id: Number(c.id), body, author: user };
  };
  const reactions = (c: { id: number }) => standIn!.reactions(c.id).map((r) => r.content);
  return { s, tandem, gh, requests, comment, reactions };
}

const api = { owner: 'acme', repo: 'api' };

describe('/tandem commands', () => {
  it('links, then unlinks: each is acknowledged, and the unlinked PR gets an evaluation of its own', async () => {
    const w = await world();
    const link = w.comment('writer', 'Please evaluate together.\n/tandem link acme/schema#2');
    await handleCommandComment(w.tandem, w.gh, 7, api, 1, link);
    expect(w.reactions(link)).toEqual(['+1']);
    expect(await w.s.links.from('acme/api#1')).toEqual([{ owner: 'acme', repo: 'schema', number: 2 }]);
    expect(w.requests).toEqual([{ seed: 'acme/api#1', installationId: 7, matrix: undefined }]);

    const unlink = w.comment('writer', '/tandem unlink acme/schema#2');
    await handleCommandComment(w.tandem, w.gh, 7, api, 1, unlink);
    expect(await w.s.links.from('acme/api#1')).toEqual([]);
    expect(await w.s.links.unlinkedPairs()).toEqual(new Set(['acme/api#1 acme/schema#2']));
    expect(w.requests.slice(1).map((r) => r.seed)).toEqual(['acme/api#1', 'acme/schema#2']);
  });

  it('`/tandem matrix full` asks for the full matrix', async () => {
    const w = await world();
    await handleCommandComment(w.tandem, w.gh, 7, api, 1, w.comment('writer', '/tandem matrix full'));
    expect(w.requests).toEqual([{ seed: 'acme/api#1', installationId: 7, matrix: 'full' }]);
  });

  it('refuses a user without write access with 😕 and changes nothing', async () => {
    const w = await world();
    const c = w.comment('reader', '/tandem link acme/schema#2');
    await handleCommandComment(w.tandem, w.gh, 7, api, 1, c);
    expect(w.reactions(c)).toEqual(['confused']);
    expect(await w.s.links.from('acme/api#1')).toEqual([]);
    expect(w.requests).toEqual([]);
  });

  it('a second `/tandem merge` while one runs gets 😕, requests no evaluation and asks GitHub for no merge', async () => {
    const w = await world();
    const id = await publishedEvaluation(w.s, { outcome: 'resolved', mergeOrder: [] }, undefined, {
      installationId: 7,
    });
    expect(await w.s.merges.start(id, 'someone')).toMatchObject({ started: expect.any(Number) });
    const c = w.comment('writer', '/tandem merge');
    await handleCommandComment(w.tandem, w.gh, 7, api, 1, c);
    expect(w.reactions(c)).toEqual(['+1', 'confused']);
    expect(w.requests).toEqual([]);
    expect(standIn!.requests.filter((r) => r.method === 'PUT')).toEqual([]);
    expect(await w.s.merges.latest(id)).toMatchObject({ requestedBy: 'someone', state: 'running' });
  });

  it('GitHub failing halfway: nothing merged, the attempt is over and the comment says where it stopped', async () => {
    const w = await world();
    const id = await publishedEvaluation(w.s, { outcome: 'resolved', mergeOrder: [] }, undefined, {
      installationId: 7,
    });
    standIn!.failNext({ status: 502, count: 10, method: 'GET', path: /\/pulls\/1$/, message: 'Bad Gateway' });
    const c = w.comment('writer', '/tandem merge');
    await expect(handleCommandComment(w.tandem, w.gh, 7, api, 1, c)).rejects.toMatchObject({ status: 502 });
    expect((await w.s.merges.latest(id))?.state).toBe('interrupted');
    expect(standIn!.requests.filter((r) => r.method === 'PUT')).toEqual([]);
    const said = standIn!.comments('acme', 'api', 1).filter((x) => x.body?.includes('<!-- tandem:merge -->'));
    expect(said).toHaveLength(1);
    expect(said[0]!.body).toMatch(
      /^⛔ \*\*Not merged\*\* — the merge stopped: Bad Gateway.*Nothing was merged\.$/m,
    );
  });

  it('ignores a comment without a command, and one that only quotes or fences it', async () => {
    const w = await world();
    for (const body of ['LGTM', '> /tandem run', '```\n/tandem run\n```', '<!-- /tandem run -->']) {
      const c = w.comment('writer', body);
      await handleCommandComment(w.tandem, w.gh, 7, api, 1, c);
      expect(w.reactions(c), body).toEqual([]);
    }
    expect(w.requests).toEqual([]);
  });
});
