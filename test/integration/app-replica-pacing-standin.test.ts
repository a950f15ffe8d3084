/**
 * Three App replicas' GitHub clients (the App's Octokit, one store each on one PostgreSQL
 * database) posting comments at once against the GitHub stand-in with GitHub's secondary limit
 * simulated (80 content-creating requests a minute): the shared pacing lets 80 through in the
 * minute and holds the rest, so the stand-in refuses none. Each process's own gate alone would
 * let 80 through per process, and GitHub would refuse the excess.
 */
import { describe, expect, it } from 'vitest';
import { publishing, tandemOctokit } from '../../src/app/octokit.ts';
import { SharedPacing } from '../../src/app/replicas/shared-pacing.ts';
import type { GitHub } from '../../src/github/octokit.ts';
import { addApiPull, useStandIn, useTempStore } from '../unit/app-fixtures.ts';

const use = useStandIn('tandem-replica-pacing-');
const temp = useTempStore('tandem-replica-pacing-', 'postgres');

describe('GitHub pacing shared by replicas', () => {
  it('keeps three replicas together under 80 comments a minute: the stand-in refuses none', async () => {
    const standIn = await use.start({ secondaryLimits: { contentPerMinute: 80 } });
    standIn.addRepo({ owner: 'acme', name: 'api' });
    addApiPull(standIn, 'a'.repeat(40), 'b'.repeat(40));
    const token = standIn.mintToken(standIn.installationId('acme'));
    const replicas: Array<{ pacing: SharedPacing; gh: GitHub }> = [];
    // One after the other: the first open creates the test's database.
    for (let r = 0; r < 3; r++) {
      const pacing = new SharedPacing((await temp.open()).pacing);
      const Octokit = tandemOctokit({ writeSpacingMs: 0, sharedPacing: () => pacing });
      replicas.push({
        pacing,
        gh: new Octokit({ auth: { token }, baseUrl: standIn.apiUrl }) as unknown as GitHub,
      });
    }
    const stop = new AbortController();
    let posted = 0;
    let reachedAll: () => void = () => {};
    const all80 = new Promise<void>((ok) => (reachedAll = ok));
    // 34 comments from each replica, 102 in all, inside a publication (its signal stops the rest).
    const sends = replicas.flatMap(({ gh }, r) =>
      Array.from({ length: 34 }, (_, i) =>
        publishing.run(stop.signal, () =>
          gh.rest.issues
            .createComment({ owner: 'acme', repo: 'api', issue_number: 1, body: `replica ${r} comment ${i}` })
            .then(() => {
              posted += 1;
              if (posted === 80) reachedAll();
            }),
        ),
      ),
    );
    await all80;
    // The minute is full: the other 22 wait for room (a minute), so the test stops them here.
    expect(standIn.secondaryLimited).toBe(0);
    // Exactly the 80 that left were counted in the database's window.
    expect(await (await temp.open()).pacing.startsWithin('token:content', 60_000)).toBe(80);
    stop.abort(new Error('test over'));
    const settled = await Promise.allSettled(sends);
    expect(settled.filter((s) => s.status === 'fulfilled')).toHaveLength(80);
    expect(standIn.comments('acme', 'api', 1)).toHaveLength(80);
    expect(standIn.secondaryLimited).toBe(0);
  });
});
