/**
 * Commits as git objects and opening pull requests, on the real bare repository behind a
 * repository: `GET …/git/commits/{sha}` (its tree and parents), `POST …/git/commits` (a commit of
 * an existing tree, as a revert that restores a previous tree is written), `POST …/pulls` (head a
 * branch of the same repository; 422 "No commits between …" when it adds nothing).
 * The stand-in sends no webhooks (tests send them, test/support/webhook-sender.ts).
 */
import { z } from 'zod';
import { git, gitOut } from '../../../../src/engine/git/git.ts';
import { HttpError, notFound, type Route, type RouteContext, route, validate } from '../http.ts';
import { pullRequest } from '../pull-shapes.ts';
import { now, type PullRecord, type RepoRecord } from '../state.ts';
import { APP_GIT_ENV, gitRepo } from './git-refs.ts';

interface GitCommit {
  sha: string;
  tree: string;
  parents: string[];
  message: string;
}

async function readCommit(dir: string, sha: string): Promise<GitCommit | undefined> {
  const out = await git(['cat-file', 'commit', sha], { cwd: dir, allowFailure: true });
  if (out.code !== 0) return undefined;
  const [head = '', ...body] = out.stdout.split('\n\n');
  const lines = head.split('\n');
  return {
    sha: (await gitOut(['rev-parse', `${sha}^{commit}`], { cwd: dir })).trim(),
    tree: lines.find((l) => l.startsWith('tree '))?.slice(5) ?? '',
    parents: lines.filter((l) => l.startsWith('parent ')).map((l) => l.slice(7)),
    message: body.join('\n\n').replace(/\n$/, ''),
  };
}

function gitCommitShape(ctx: RouteContext, r: RepoRecord, c: GitCommit) {
  const api = `${ctx.shapes.api}/repos/${r.owner}/${r.name}`;
  const html = `${ctx.shapes.html}/${r.owner}/${r.name}`;
  const who = { name: 'tandem[bot]', email: 'tandem[bot]@users.noreply.github.com', date: now() };
  return {
    sha: c.sha,
    node_id: Buffer.from(`06:Commit${c.sha}`).toString('base64'),
    url: `${api}/git/commits/${c.sha}`,
    html_url: `${html}/commit/${c.sha}`,
    author: who,
    committer: who,
    message: c.message,
    tree: { sha: c.tree, url: `${api}/git/trees/${c.tree}` },
    parents: c.parents.map((sha) => ({
      sha,
      url: `${api}/git/commits/${sha}`,
      html_url: `${html}/commit/${sha}`,
    })),
    verification: { verified: false, reason: 'unsigned', signature: null, payload: null, verified_at: null },
  };
}

const CreateCommit = z.object({
  message: z.string(),
  tree: z.string(),
  parents: z.array(z.string()).optional(),
});
const CreatePull = z.object({
  title: z.string(),
  head: z.string(),
  base: z.string(),
  body: z.string().optional(),
  draft: z.boolean().optional(),
});

async function createPull(ctx: RouteContext) {
  const { r, dir } = gitRepo(ctx);
  const body = validate(CreatePull, ctx.body, 'PullRequest');
  const headRef = body.head.includes(':') ? body.head.slice(body.head.indexOf(':') + 1) : body.head;
  const sha = async (branch: string) => {
    const out = await git(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`], {
      cwd: dir,
      allowFailure: true,
    });
    return out.code === 0 ? out.stdout.trim() : undefined;
  };
  const [headSha, baseSha] = [await sha(headRef), await sha(body.base)];
  if (!headSha || !baseSha)
    throw new HttpError(422, 'Validation Failed', {
      errors: [{ resource: 'PullRequest', field: headSha ? 'base' : 'head', code: 'invalid' }],
    });
  const adds = await git(['merge-base', '--is-ancestor', headSha, baseSha], { cwd: dir, allowFailure: true });
  if (adds.code === 0)
    throw new HttpError(422, 'Validation Failed', {
      errors: [
        {
          resource: 'PullRequest',
          code: 'custom',
          message: `No commits between ${body.base} and ${headRef}`,
        },
      ],
    });
  const at = now();
  const rec: PullRecord = {
    id: ctx.state.newId(),
    owner: r.owner,
    repo: r.name,
    number: ctx.state.nextNumber(r.owner, r.name),
    title: body.title,
    body: body.body ?? null,
    state: 'open',
    draft: body.draft ?? false,
    merged: false,
    mergedAt: null,
    closedAt: null,
    headRef,
    headSha,
    headRepo: { owner: r.owner, name: r.name },
    baseRef: body.base,
    baseSha,
    user: ctx.caller.login ?? 'octocat',
    createdAt: at,
    updatedAt: at,
  };
  ctx.state.pulls.push(rec);
  return { status: 201, body: pullRequest(ctx.shapes, rec) };
}

export function gitObjectRoutes(): Route[] {
  return [
    route('GET', '/repos/{owner}/{repo}/git/commits/{sha}', 'token', async (ctx) => {
      const { r, dir } = gitRepo(ctx);
      const c = await readCommit(dir, ctx.params.sha ?? '');
      if (!c) throw notFound();
      return { status: 200, body: gitCommitShape(ctx, r, c) };
    }),
    route('POST', '/repos/{owner}/{repo}/git/commits', 'token', async (ctx) => {
      const { r, dir } = gitRepo(ctx);
      const body = validate(CreateCommit, ctx.body, 'Commit');
      const tree = await git(['cat-file', '-t', body.tree], { cwd: dir, allowFailure: true });
      if (tree.stdout.trim() !== 'tree') throw new HttpError(422, 'Tree SHA does not exist');
      const parents = body.parents ?? [];
      for (const p of parents)
        if (!(await readCommit(dir, p)))
          throw new HttpError(422, 'Parent SHA does not exist or is not a commit object');
      const sha = (
        await gitOut(['commit-tree', body.tree, ...parents.flatMap((p) => ['-p', p]), '-m', body.message], {
          cwd: dir,
          env: APP_GIT_ENV,
        })
      ).trim();
      const c = await readCommit(dir, sha);
      return { status: 201, body: gitCommitShape(ctx, r, c!) };
    }),
    route('POST', '/repos/{owner}/{repo}/pulls', 'token', createPull),
  ];
}
