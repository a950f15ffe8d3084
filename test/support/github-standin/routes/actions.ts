/**
 * GitHub Actions routes: workflow and repository dispatches, workflow runs (seeded by the test:
 * the stand-in runs no workflows), run artifacts and their zip download.
 */
import { z } from 'zod';
import { intParam, notFound, paginate, type Route, type RouteContext, route, validate } from '../http.ts';
import type { ShapeContext } from '../shapes.ts';
import { repository } from '../shapes.ts';
import type { ArtifactRecord, DispatchRecord, RepoRecord, WorkflowRunRecord } from '../state.ts';
import { checkWorkflowDispatch } from '../workflow-dispatch-rules.ts';
import { findInRepo, requireRepo } from './repos.ts';

const WorkflowDispatchBody = z.object({
  ref: z.string().min(1),
  inputs: z.record(z.string(), z.unknown()).optional(),
});
const RepositoryDispatchBody = z.object({
  event_type: z.string().min(1).max(100),
  // GitHub allows at most 10 top-level properties in client_payload.
  client_payload: z
    .record(z.string(), z.unknown())
    .refine((o) => Object.keys(o).length <= 10, 'client_payload may have at most 10 top-level properties')
    .optional(),
});

function artifactShape(ctx: RouteContext, a: ArtifactRecord) {
  const url = `${ctx.shapes.api}/repos/${a.owner}/${a.repo}/actions/artifacts/${a.id}`;
  return {
    id: a.id,
    node_id: Buffer.from(`MDg6QXJ0aWZhY3Q${a.id}`).toString('base64'),
    name: a.name,
    size_in_bytes: a.zip.length,
    url,
    archive_download_url: `${url}/zip`,
    expired: false,
    created_at: a.createdAt,
    updated_at: a.createdAt,
    expires_at: new Date(Date.now() + 90 * 86400_000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    digest: null,
    workflow_run: {
      id: a.runId,
      repository_id: ctx.state.repo(a.owner, a.repo)?.id ?? 0,
      head_sha: ctx.state.workflowRuns.find((w) => w.id === a.runId)?.headSha ?? '0'.repeat(40),
    },
  };
}

/** A run in the REST shape (`GET /repos/{o}/{r}/actions/runs/{id}`; also `workflow_run` in webhooks). */
export function workflowRunShape(shapes: ShapeContext, run: WorkflowRunRecord) {
  const repo = shapes.state.repo(run.owner, run.repo);
  const url = `${shapes.api}/repos/${run.owner}/${run.repo}/actions/runs/${run.id}`;
  const repoShape = repo ? repository(shapes, repo) : undefined;
  return {
    id: run.id,
    name: run.name,
    node_id: Buffer.from(`WFR_${run.id}`).toString('base64'),
    head_branch: run.headBranch,
    head_sha: run.headSha,
    path: `.github/workflows/${run.workflowId}`,
    display_title: run.displayTitle,
    run_number: run.id,
    run_attempt: run.runAttempt,
    event: run.event,
    status: run.status,
    conclusion: run.conclusion,
    workflow_id: workflowNumber(run.workflowId),
    url,
    html_url: `${shapes.html}/${run.owner}/${run.repo}/actions/runs/${run.id}`,
    pull_requests: [],
    head_commit: null,
    created_at: run.createdAt,
    updated_at: run.updatedAt,
    run_started_at: run.createdAt,
    jobs_url: `${url}/jobs`,
    logs_url: `${url}/logs`,
    check_suite_url: `${url}/check-suite`,
    artifacts_url: `${url}/artifacts`,
    cancel_url: `${url}/cancel`,
    rerun_url: `${url}/rerun`,
    workflow_url: `${shapes.api}/repos/${run.owner}/${run.repo}/actions/workflows/${workflowNumber(run.workflowId)}`,
    repository: repoShape,
    head_repository: repoShape,
  };
}

/** A stable numeric workflow id for a workflow file name. */
function workflowNumber(file: string): number {
  let n = 7;
  for (const ch of file) n = (n * 31 + ch.charCodeAt(0)) % 100_000_000;
  return n;
}

function runsOf(ctx: RouteContext, owner: string, repo: string): WorkflowRunRecord[] {
  return ctx.state.workflowRuns.filter((w) => w.owner === owner && w.repo === repo);
}

/** GitHub's `created` filter as the App uses it: `>=2024-01-01T00:00:00Z` (other forms ignored). */
function createdFilter(value: string | null): (r: WorkflowRunRecord) => boolean {
  const m = value ? /^>=(.+)$/.exec(value) : null;
  if (!m) return () => true;
  const since = Date.parse(m[1]!);
  return (r) => Date.parse(r.createdAt) >= since;
}

/** A dispatch record without its repository, which the route's path names. */
type DispatchOf<D> = D extends unknown ? Omit<D, 'owner' | 'repo'> : never;

/** A dispatch endpoint: records the dispatch for the test (which plays the runner) and answers 204. */
function dispatchRoute<T extends z.ZodType>(
  template: string,
  schema: T,
  resource: string,
  record: (body: z.infer<T>, ctx: RouteContext) => DispatchOf<DispatchRecord>,
  check: (body: z.infer<T>, ctx: RouteContext, repo: RepoRecord) => void = () => {},
): Route {
  return route('POST', template, 'token', (ctx) => {
    const r = requireRepo(ctx);
    const body = validate(schema, ctx.body, resource);
    check(body, ctx, r);
    ctx.state.dispatches.push({ ...record(body, ctx), owner: r.owner, repo: r.name });
    return { status: 204 };
  });
}

export function actionRoutes(): Route[] {
  return [
    dispatchRoute(
      '/repos/{owner}/{repo}/actions/workflows/{workflow}/dispatches',
      WorkflowDispatchBody,
      'WorkflowDispatch',
      (body, ctx) => ({
        kind: 'workflow',
        workflowId: ctx.params.workflow ?? '',
        ref: body.ref,
        inputs: body.inputs ?? {},
      }),
      (body, ctx, r) =>
        checkWorkflowDispatch(ctx.state, r, ctx.params.workflow ?? '', body.ref, body.inputs ?? {}),
    ),

    dispatchRoute(
      '/repos/{owner}/{repo}/dispatches',
      RepositoryDispatchBody,
      'RepositoryDispatch',
      (body) => ({
        kind: 'repository',
        eventType: body.event_type,
        clientPayload: body.client_payload ?? {},
      }),
    ),

    route('GET', '/repos/{owner}/{repo}/actions/runs/{run}', 'token', (ctx) => {
      const r = requireRepo(ctx);
      const id = intParam(ctx.params.run);
      const run = runsOf(ctx, r.owner, r.name).find((w) => w.id === id);
      if (!run) throw notFound();
      return { status: 200, body: workflowRunShape(ctx.shapes, run) };
    }),

    route('GET', '/repos/{owner}/{repo}/actions/workflows/{workflow}/runs', 'token', (ctx) => {
      const r = requireRepo(ctx);
      const event = ctx.query.get('event');
      const status = ctx.query.get('status');
      const created = createdFilter(ctx.query.get('created'));
      const list = runsOf(ctx, r.owner, r.name)
        .filter(
          (w) =>
            w.workflowId === ctx.params.workflow ||
            String(workflowNumber(w.workflowId)) === ctx.params.workflow,
        )
        .filter((w) => (!event || w.event === event) && (!status || w.status === status) && created(w))
        .sort((a, b) => b.id - a.id);
      const { page, headers } = paginate(ctx, list);
      return {
        status: 200,
        body: { total_count: list.length, workflow_runs: page.map((w) => workflowRunShape(ctx.shapes, w)) },
        headers,
      };
    }),

    route('GET', '/repos/{owner}/{repo}/actions/runs/{run}/artifacts', 'token', (ctx) => {
      const r = requireRepo(ctx);
      const runId = intParam(ctx.params.run);
      const name = ctx.query.get('name');
      const list = ctx.state.artifacts.filter(
        (a) => a.owner === r.owner && a.repo === r.name && a.runId === runId && (!name || a.name === name),
      );
      const { page, headers } = paginate(ctx, list);
      return {
        status: 200,
        body: { total_count: list.length, artifacts: page.map((a) => artifactShape(ctx, a)) },
        headers,
      };
    }),

    route('GET', '/repos/{owner}/{repo}/actions/artifacts/{id}', 'token', (ctx) => {
      const a = findInRepo(requireRepo(ctx), ctx.state.artifacts, intParam(ctx.params.id));
      return { status: 200, body: artifactShape(ctx, a) };
    }),

    // GitHub answers with a 302 to a short-lived storage URL; fetch follows it without our auth header.
    route('GET', '/repos/{owner}/{repo}/actions/artifacts/{id}/zip', 'token', (ctx) => {
      const a = findInRepo(requireRepo(ctx), ctx.state.artifacts, intParam(ctx.params.id));
      return { status: 302, headers: { location: `${ctx.url.origin}/_blobs/artifacts/${a.id}.zip` } };
    }),

    route('GET', '/_blobs/artifacts/{file}', 'none', (ctx) => {
      const id = Number((ctx.params.file ?? '').replace(/\.zip$/, ''));
      const a = ctx.state.artifacts.find((x) => x.id === id);
      if (!a) throw notFound();
      return { status: 200, raw: a.zip, contentType: 'application/zip' };
    }),
  ];
}
