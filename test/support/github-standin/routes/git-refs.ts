/**
 * Git references and the merges API, on the real bare repository behind a repository (`setGitDir`):
 * `GET …/git/ref/{ref}`, `GET …/git/matching-refs/{ref}`, `POST …/git/refs` (422 "Reference
 * already exists"), `PATCH …/git/refs/{ref}` (with `force: false`, 422 "Update is not a fast
 * forward" unless the new SHA descends from the tip; the branch's rules and the injected refusals
 * of ref-updates.ts first), `DELETE …/git/refs/{ref}` and `POST …/merges` (201 a merge commit,
 * 204 nothing to merge, 409 "Merge conflict", 404 a missing base or head). Every move is a
 * compare-and-swap in git (`update-ref <new> <old>`), publishes the tip for `GET …/branches/{b}`
 * and marks merged the PRs whose heads it made reachable. Without a git directory: 404.
 */
import { z } from 'zod';
import { git, gitOut } from '../../../../src/engine/git/git.ts';
import { HttpError, notFound, type Route, type RouteContext, route, validate } from '../http.ts';
import { injectedRefusal, markReachablePulls, ruleRefusal, runForcedUpdateHooks } from '../ref-updates.ts';
import type { RepoRecord } from '../state.ts';
import { commitShape } from './history.ts';
import { gitDirOf } from './merges.ts';
import { requireRepo, setBranch } from './repos.ts';

export const APP_GIT_ENV = {
  GIT_AUTHOR_NAME: 'tandem[bot]',
  GIT_AUTHOR_EMAIL: 'tandem[bot]@users.noreply.github.com',
  GIT_COMMITTER_NAME: 'GitHub',
  GIT_COMMITTER_EMAIL: 'noreply@github.com',
};

/** The repository and its bare git directory; 404 when the test gave it none. */
export function gitRepo(ctx: RouteContext): { r: RepoRecord; dir: string } {
  const r = requireRepo(ctx);
  const dir = gitDirOf(ctx.state, r.owner, r.name);
  if (!dir) throw notFound();
  return { r, dir };
}

/** A full ref name's SHA, or undefined. */
async function resolve(dir: string, name: string): Promise<string | undefined> {
  const out = await git(['rev-parse', '--verify', '--quiet', `${name}^{commit}`], {
    cwd: dir,
    allowFailure: true,
  });
  return out.code === 0 ? out.stdout.trim() : undefined;
}

const isAncestor = async (dir: string, a: string, b: string) =>
  (await git(['merge-base', '--is-ancestor', a, b], { cwd: dir, allowFailure: true })).code === 0;

function refShape(ctx: RouteContext, r: RepoRecord, ref: string, sha: string) {
  const api = `${ctx.shapes.api}/repos/${r.owner}/${r.name}`;
  return {
    ref,
    node_id: Buffer.from(`03:Ref${r.id}:${ref}`).toString('base64'),
    url: `${api}/git/${ref}`,
    object: { type: 'commit', sha, url: `${api}/git/commits/${sha}` },
  };
}

/** Moves `ref` from `old` to `sha` in git (compare-and-swap) and tells GitHub's side of it. */
async function moveRef(ctx: RouteContext, r: RepoRecord, dir: string, ref: string, sha: string, old: string) {
  const moved = await git(['update-ref', ref, sha, old], { cwd: dir, allowFailure: true });
  if (moved.code !== 0) throw new HttpError(409, 'Reference update failed: the reference moved');
  const branch = ref.replace(/^refs\/heads\//, '');
  if (branch !== ref) {
    setBranch(ctx.state, r.owner, r.name, branch, sha);
    await markReachablePulls(ctx.state, dir, r.owner, r.name, branch, sha);
  }
}

function refuseByRules(ctx: RouteContext, r: RepoRecord, ref: string, force: boolean): void {
  if (!ref.startsWith('refs/heads/')) return;
  const branch = ref.slice('refs/heads/'.length);
  const refused = ruleRefusal(ctx.state, ctx.caller, r.owner, r.name, branch, force);
  if (refused) throw new HttpError(422, refused);
}

const CreateRef = z.object({ ref: z.string().startsWith('refs/'), sha: z.string() });
const UpdateRef = z.object({ sha: z.string(), force: z.boolean().optional() });
const MergeBody = z.object({ base: z.string(), head: z.string(), commit_message: z.string().optional() });

async function updateRef(ctx: RouteContext) {
  const { r, dir } = gitRepo(ctx);
  const ref = `refs/${ctx.params.ref ?? ''}`;
  const body = validate(UpdateRef, ctx.body, 'Reference');
  if (body.force) await runForcedUpdateHooks(ctx.state, r.owner, r.name, ref.replace(/^refs\/heads\//, ''));
  const tip = await resolve(dir, ref);
  if (!tip) throw new HttpError(422, 'Reference does not exist');
  if (!(await resolve(dir, body.sha))) throw new HttpError(422, 'Object does not exist');
  if (ref.startsWith('refs/heads/')) {
    const injected = injectedRefusal(ctx.state, r.owner, r.name, ref.slice('refs/heads/'.length));
    if (injected) throw new HttpError(injected.status, injected.message);
  }
  const force = body.force ?? false;
  refuseByRules(ctx, r, ref, force);
  if (!force && !(await isAncestor(dir, tip, body.sha)))
    throw new HttpError(422, 'Update is not a fast forward');
  await moveRef(ctx, r, dir, ref, body.sha, tip);
  return { status: 200, body: refShape(ctx, r, ref, body.sha) };
}

async function mergeIntoBranch(ctx: RouteContext) {
  const { r, dir } = gitRepo(ctx);
  const body = validate(MergeBody, ctx.body, 'Merge');
  const ref = `refs/heads/${body.base}`;
  const tip = await resolve(dir, ref);
  if (!tip) throw new HttpError(404, 'Base does not exist');
  const head = (await resolve(dir, `refs/heads/${body.head}`)) ?? (await resolve(dir, body.head));
  if (!head) throw new HttpError(404, 'Head does not exist');
  if (await isAncestor(dir, head, tip)) return { status: 204 };
  refuseByRules(ctx, r, ref, false);
  const tree = await git(['merge-tree', '--write-tree', tip, head], { cwd: dir, allowFailure: true });
  if (tree.code !== 0) throw new HttpError(409, 'Merge conflict');
  const message = body.commit_message ?? `Merge ${body.head} into ${body.base}`;
  const treeSha = tree.stdout.split('\n')[0]!.trim();
  const sha = (
    await gitOut(['commit-tree', treeSha, '-p', tip, '-p', head, '-m', message], {
      cwd: dir,
      env: APP_GIT_ENV,
    })
  ).trim();
  await moveRef(ctx, r, dir, ref, sha, tip);
  const shaped = commitShape(ctx.shapes, r.owner, r.name, { sha, message, parents: [tip, head] });
  const api = `${ctx.shapes.api}/repos/${r.owner}/${r.name}`;
  shaped.commit.tree = { sha: treeSha, url: `${api}/git/trees/${treeSha}` };
  return { status: 201, body: shaped };
}

export function gitRefRoutes(): Route[] {
  return [
    route('GET', '/repos/{owner}/{repo}/git/ref/{ref+}', 'token', async (ctx) => {
      const { r, dir } = gitRepo(ctx);
      const ref = `refs/${ctx.params.ref ?? ''}`;
      const sha = await resolve(dir, ref);
      if (!sha) throw notFound();
      return { status: 200, body: refShape(ctx, r, ref, sha) };
    }),
    route('GET', '/repos/{owner}/{repo}/git/matching-refs/{ref+}', 'token', async (ctx) => {
      const { r, dir } = gitRepo(ctx);
      const prefix = `refs/${ctx.params.ref ?? ''}`;
      const out = await gitOut(['for-each-ref', '--format=%(refname) %(objectname)', 'refs/'], { cwd: dir });
      const body = out
        .split('\n')
        .filter((l) => l.startsWith(prefix))
        .map((l) => {
          const [ref = '', sha = ''] = l.split(' ');
          return refShape(ctx, r, ref, sha);
        });
      return { status: 200, body };
    }),
    route('POST', '/repos/{owner}/{repo}/git/refs', 'token', async (ctx) => {
      const { r, dir } = gitRepo(ctx);
      const body = validate(CreateRef, ctx.body, 'Reference');
      if (await resolve(dir, body.ref)) throw new HttpError(422, 'Reference already exists');
      if (!(await resolve(dir, body.sha))) throw new HttpError(422, 'Object does not exist');
      refuseByRules(ctx, r, body.ref, false);
      await moveRef(ctx, r, dir, body.ref, body.sha, '0'.repeat(40));
      return { status: 201, body: refShape(ctx, r, body.ref, body.sha) };
    }),
    route('PATCH', '/repos/{owner}/{repo}/git/refs/{ref+}', 'token', updateRef),
    route('DELETE', '/repos/{owner}/{repo}/git/refs/{ref+}', 'token', async (ctx) => {
      const { r, dir } = gitRepo(ctx);
      const ref = `refs/${ctx.params.ref ?? ''}`;
      const tip = await resolve(dir, ref);
      if (!tip) throw new HttpError(422, 'Reference does not exist');
      refuseByRules(ctx, r, ref, true);
      await git(['update-ref', '-d', ref, tip], { cwd: dir });
      return { status: 204 };
    }),
    route('POST', '/repos/{owner}/{repo}/merges', 'token', mergeIntoBranch),
  ];
}
