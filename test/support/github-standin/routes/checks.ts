/** Check run routes, with GitHub's size and state rules enforced as 422s. */
import { z } from 'zod';
import { checkRun } from '../activity-shapes.ts';
import { HttpError, intParam, paginate, type Route, type RouteContext, route, validate } from '../http.ts';
import { type CheckRunRecord, now } from '../state.ts';
import { findInRepo, requireRepo } from './repos.ts';

/** GitHub counts check-run output in bytes: a string of emoji is refused long before 65,535 characters. */
const MAX = 65535;
const limited = z.string().refine((s) => Buffer.byteLength(s, 'utf8') <= MAX, {
  error: (iss) =>
    `Only ${MAX} bytes are allowed; ${Buffer.byteLength(String(iss.input), 'utf8')} were supplied.`,
});

const Status = z.enum(['queued', 'in_progress', 'completed', 'waiting', 'requested', 'pending']);
const Conclusion = z.enum([
  'action_required',
  'cancelled',
  'failure',
  'neutral',
  'success',
  'skipped',
  'stale',
  'timed_out',
]);
const Output = z.object({
  title: z.string().max(1000),
  summary: limited,
  text: limited.optional(),
  annotations: z.array(z.object({}).loose()).max(50).optional(),
  images: z.array(z.object({}).loose()).optional(),
});
const Fields = {
  details_url: z.string().optional(),
  external_id: z.string().optional(),
  status: Status.optional(),
  started_at: z.string().optional(),
  conclusion: Conclusion.optional(),
  completed_at: z.string().optional(),
  output: Output.optional(),
  actions: z
    .array(
      z.object({
        label: z.string().max(20),
        description: z.string().max(40),
        identifier: z.string().max(20),
      }),
    )
    .max(3)
    .optional(),
};
const CreateBody = z.object({ name: z.string().min(1), head_sha: z.string().min(1), ...Fields });
const UpdateBody = z.object({ name: z.string().min(1).optional(), ...Fields });

function requireApp(ctx: RouteContext): void {
  // Only GitHub Apps may write check runs; a PAT gets 403 on GitHub.
  if (ctx.caller.installationId === undefined) {
    throw new HttpError(403, 'You must authenticate via a GitHub App.');
  }
}

function apply(run: CheckRunRecord, body: z.infer<typeof UpdateBody>): void {
  if (body.name !== undefined) run.name = body.name;
  if (body.details_url !== undefined) run.detailsUrl = body.details_url;
  if (body.external_id !== undefined) run.externalId = body.external_id;
  if (body.started_at !== undefined) run.startedAt = body.started_at;
  if (body.status !== undefined) run.status = body.status;
  // Moved back to queued or in progress (a re-evaluation of the same head): no conclusion until completed again.
  if (body.status !== undefined && body.status !== 'completed' && body.conclusion === undefined) {
    run.conclusion = null;
    run.completedAt = null;
  }
  // Providing a conclusion sets the status to completed, as GitHub documents.
  if (body.conclusion !== undefined) {
    run.conclusion = body.conclusion;
    run.status = 'completed';
  }
  if (run.status === 'completed' && run.conclusion === null) {
    throw new HttpError(422, 'Validation Failed', {
      errors: [{ resource: 'CheckRun', field: 'conclusion', code: 'missing_field' }],
    });
  }
  if (run.status === 'completed') run.completedAt = body.completed_at ?? run.completedAt ?? now();
  if (body.output) {
    run.output = {
      title: body.output.title,
      summary: body.output.summary,
      text: body.output.text ?? null,
      annotationsCount: run.output.annotationsCount + (body.output.annotations?.length ?? 0),
    };
  }
}

export function checkRoutes(): Route[] {
  return [
    route('POST', '/repos/{owner}/{repo}/check-runs', 'token', (ctx) => {
      const r = requireRepo(ctx);
      requireApp(ctx);
      const body = validate(CreateBody, ctx.body, 'CheckRun');
      const run: CheckRunRecord = {
        id: ctx.state.newId(),
        owner: r.owner,
        repo: r.name,
        name: body.name,
        headSha: body.head_sha,
        status: 'queued',
        conclusion: null,
        externalId: null,
        detailsUrl: null,
        startedAt: now(),
        completedAt: null,
        output: { title: null, summary: null, text: null, annotationsCount: 0 },
        history: [ctx.body],
      };
      apply(run, body);
      ctx.state.checkRunList.push(run);
      return { status: 201, body: checkRun(ctx.shapes, run) };
    }),

    route('PATCH', '/repos/{owner}/{repo}/check-runs/{id}', 'token', (ctx) => {
      const r = requireRepo(ctx);
      requireApp(ctx);
      const run = findInRepo(r, ctx.state.checkRunList, intParam(ctx.params.id));
      const body = validate(UpdateBody, ctx.body, 'CheckRun');
      // Validate on a copy so a rejected update leaves the run as it was.
      const draft: CheckRunRecord = { ...run, output: { ...run.output } };
      apply(draft, body);
      Object.assign(run, draft);
      run.history.push(ctx.body);
      return { status: 200, body: checkRun(ctx.shapes, run) };
    }),

    route('GET', '/repos/{owner}/{repo}/check-runs/{id}', 'token', (ctx) => {
      const r = requireRepo(ctx);
      const run = findInRepo(r, ctx.state.checkRunList, intParam(ctx.params.id));
      return { status: 200, body: checkRun(ctx.shapes, run) };
    }),

    route('GET', '/repos/{owner}/{repo}/commits/{ref+}/check-runs', 'token', (ctx) => {
      const r = requireRepo(ctx);
      const ref = ctx.params.ref ?? '';
      // A branch name resolves through the PRs' head refs (the stand-in keeps no branches).
      const sha =
        ctx.state.pulls.find((p) => p.owner === r.owner && p.repo === r.name && p.headRef === ref)?.headSha ??
        ref;
      const name = ctx.query.get('check_name');
      const status = ctx.query.get('status');
      let runs = ctx.state.checkRunList
        .filter((c) => c.owner === r.owner && c.repo === r.name && c.headSha === sha)
        .filter((c) => !name || c.name === name)
        .filter((c) => !status || c.status === status)
        .sort((a, b) => b.id - a.id);
      if ((ctx.query.get('filter') ?? 'latest') === 'latest') {
        const seen = new Set<string>();
        runs = runs.filter((c) => !seen.has(c.name) && seen.add(c.name));
      }
      const { page, headers } = paginate(ctx, runs);
      return {
        status: 200,
        body: { total_count: runs.length, check_runs: page.map((c) => checkRun(ctx.shapes, c)) },
        headers,
      };
    }),
  ];
}
