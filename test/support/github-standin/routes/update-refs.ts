/**
 * GitHub's GraphQL `updateRefs` mutation (variables `repositoryId`, `refUpdates: [{ name,
 * beforeOid, afterOid, force }]`), as the queue's undo resets a branch with it: every update is
 * checked first — the ref must point at `beforeOid` (a compare-and-swap), a non-fast-forward
 * needs `force`, the branch's rules as for `PATCH …/git/refs` — and all are applied or none (each
 * with git's `update-ref <new> <old>`). A refusal is a GraphQL error (HTTP 200), as GitHub answers.
 * `beforeForcedUpdate` (ref-updates.ts) hooks run first; `refuseRefUpdate` counts these updates too.
 */
import { git } from '../../../../src/engine/git/git.ts';
import type { RouteContext } from '../http.ts';
import { injectedRefusal, markReachablePulls, ruleRefusal, runForcedUpdateHooks } from '../ref-updates.ts';
import { gitDirOf } from './merges.ts';
import { setBranch } from './repos.ts';

interface RefUpdate {
  name: string;
  beforeOid?: string;
  afterOid: string;
  force?: boolean;
}

const refused = (message: string) => ({
  status: 200,
  body: { data: null, errors: [{ type: 'UNPROCESSABLE', message, path: ['updateRefs'] }] },
});

async function tipOf(dir: string, ref: string): Promise<string | undefined> {
  const r = await git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], {
    cwd: dir,
    allowFailure: true,
  });
  return r.code === 0 ? r.stdout.trim() : undefined;
}

export async function updateRefsMutation(ctx: RouteContext, vars: Record<string, unknown>) {
  const r = [...ctx.state.repos.values()].find(
    (x) => Buffer.from(`010:Repository${x.id}`).toString('base64') === vars.repositoryId,
  );
  const dir = r && gitDirOf(ctx.state, r.owner, r.name);
  if (!r || !dir)
    return refused(`Could not resolve to a node with the global id of '${String(vars.repositoryId)}'`);
  const updates = (vars.refUpdates ?? []) as RefUpdate[];
  for (const u of updates)
    await runForcedUpdateHooks(ctx.state, r.owner, r.name, u.name.replace(/^refs\/heads\//, ''));
  const checked: Array<RefUpdate & { tip: string }> = [];
  for (const u of updates) {
    const tip = await tipOf(dir, u.name);
    if (!tip) return refused(`Reference ${u.name} does not exist`);
    if (u.beforeOid !== undefined && u.beforeOid !== tip)
      return refused(`Reference ${u.name} is at ${tip}, not at the expected ${u.beforeOid}`);
    const forward =
      (await git(['merge-base', '--is-ancestor', tip, u.afterOid], { cwd: dir, allowFailure: true })).code ===
      0;
    if (!forward && !u.force) return refused(`Update of ${u.name} is not a fast forward`);
    const branch = u.name.replace(/^refs\/heads\//, '');
    // The refusals tests inject count every branch update, REST or GraphQL (ref-updates.ts).
    const injected = branch !== u.name ? injectedRefusal(ctx.state, r.owner, r.name, branch) : undefined;
    if (injected) return refused(injected.message.trim());
    const rule = ruleRefusal(ctx.state, ctx.caller, r.owner, r.name, branch, !forward);
    if (rule) return refused(rule.trim());
    checked.push({ ...u, tip });
  }
  for (const u of checked) {
    const moved = await git(['update-ref', u.name, u.afterOid, u.tip], { cwd: dir, allowFailure: true });
    if (moved.code !== 0) return refused(`Reference ${u.name} moved`);
    const branch = u.name.replace(/^refs\/heads\//, '');
    setBranch(ctx.state, r.owner, r.name, branch, u.afterOid);
    await markReachablePulls(ctx.state, dir, r.owner, r.name, branch, u.afterOid);
  }
  return { status: 200, body: { data: { updateRefs: { clientMutationId: null } } } };
}
