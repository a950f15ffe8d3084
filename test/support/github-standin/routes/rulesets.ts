/**
 * `GET /repos/{o}/{r}/rulesets/{id}`: the rulesets `GET …/rules/branches/{b}` names (42: required
 * checks, 43: merge rules, see merges.ts), with `current_user_can_bypass` — how the App learns
 * whether it is a bypass actor (`always`) without the administration permission that
 * `bypass_actors` needs (omitted here, as GitHub omits it for such callers).
 */
import { requirementsOf } from '../branch-rules.ts';
import { intParam, notFound, type Route, route } from '../http.ts';
import { now } from '../state.ts';
import { requireRepo } from './repos.ts';

export function rulesetRoutes(): Route[] {
  return [
    route('GET', '/repos/{owner}/{repo}/rulesets/{id}', 'token', (ctx) => {
      const r = requireRepo(ctx);
      const id = intParam(ctx.params.id);
      if (id !== 42 && id !== 43) throw notFound();
      // The stand-in's rules are set per branch; its rulesets are read as the default branch's.
      const req = requirementsOf(ctx.state, r.owner, r.name, r.defaultBranch);
      const bypass = id === 43 && req.merge?.appBypass === true && ctx.caller.installationId !== undefined;
      const api = `${ctx.shapes.api}/repos/${r.owner}/${r.name}/rulesets/${id}`;
      return {
        status: 200,
        body: {
          id,
          name: id === 42 ? 'required checks' : 'merge rules',
          target: 'branch',
          source_type: 'Repository',
          source: `${r.owner}/${r.name}`,
          enforcement: 'active',
          current_user_can_bypass: bypass ? 'always' : 'never',
          node_id: Buffer.from(`RRS_${id}`).toString('base64'),
          _links: {
            self: { href: api },
            html: { href: `${ctx.shapes.html}/${r.owner}/${r.name}/rules/${id}` },
          },
          conditions: { ref_name: { include: ['~DEFAULT_BRANCH'], exclude: [] } },
          rules: [],
          created_at: now(),
          updated_at: now(),
        },
      };
    }),
  ];
}
