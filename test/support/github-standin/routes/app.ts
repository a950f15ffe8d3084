/** App and installation routes (JWT-authenticated), and installation token minting. */
import { z } from 'zod';
import type { TokenBook } from '../auth.ts';
import { HttpError, intParam, notFound, paginate, type Route, route, validate } from '../http.ts';
import { app, installation, repository } from '../shapes.ts';

const AccessTokenBody = z
  .object({
    repositories: z.array(z.string()).optional(),
    repository_ids: z.array(z.number().int()).optional(),
    permissions: z.record(z.string(), z.string()).optional(),
  })
  .loose();

export function appRoutes(tokens: TokenBook): Route[] {
  return [
    route('GET', '/app', 'jwt', ({ shapes }) => ({ status: 200, body: app(shapes) })),

    route('GET', '/app/installations', 'jwt', (ctx) => {
      const all = [...ctx.state.installations.keys()].map((id) => installation(ctx.shapes, id));
      const { page, headers } = paginate(ctx, all);
      return { status: 200, body: page, headers };
    }),

    route('GET', '/app/installations/{id}', 'jwt', ({ params, shapes }) => {
      const inst = installation(shapes, intParam(params.id));
      if (!inst) throw notFound();
      return { status: 200, body: inst };
    }),

    route('POST', '/app/installations/{id}/access_tokens', 'jwt', ({ params, body, shapes, state }) => {
      const id = intParam(params.id);
      const inst = installation(shapes, id);
      if (!inst) throw notFound();
      const req = validate(AccessTokenBody, body, 'InstallationToken');
      const { token, expiresAt } = tokens.mint(id);
      const repos = req.repositories
        ?.map((name) => state.repo(state.installations.get(id)?.account ?? '', name))
        .filter((r) => r !== undefined);
      return {
        status: 201,
        body: {
          token,
          expires_at: expiresAt.toISOString().replace(/\.\d{3}Z$/, 'Z'),
          permissions: req.permissions ?? inst.permissions,
          repository_selection: repos ? 'selected' : 'all',
          ...(repos ? { repositories: repos.map((r) => repository(shapes, r)) } : {}),
        },
      };
    }),

    route('GET', '/repos/{owner}/{repo}/installation', 'jwt', ({ params, shapes, state }) => {
      const r = state.repo(params.owner ?? '', params.repo ?? '');
      const inst = r && installation(shapes, r.installationId);
      if (!inst) throw notFound();
      return { status: 200, body: inst };
    }),

    route('GET', '/orgs/{org}/installation', 'jwt', ({ params, shapes, state }) => {
      const rec = state.installationFor(params.org ?? '');
      if (!rec) throw notFound();
      return { status: 200, body: installation(shapes, rec.id) };
    }),

    route('GET', '/users/{user}/installation', 'jwt', ({ params, shapes, state }) => {
      const rec = state.installationFor(params.user ?? '');
      if (!rec) throw notFound();
      return { status: 200, body: installation(shapes, rec.id) };
    }),

    route('GET', '/installation/repositories', 'token', (ctx) => {
      const id = ctx.caller.installationId;
      if (id === undefined) throw new HttpError(403, 'This endpoint requires an installation token');
      const repos = [...ctx.state.repos.values()].filter((r) => r.installationId === id);
      const { page, headers } = paginate(ctx, repos);
      return {
        status: 200,
        body: {
          total_count: repos.length,
          repository_selection: 'all',
          repositories: page.map((r) => repository(ctx.shapes, r)),
        },
        headers,
      };
    }),
  ];
}
