/**
 * The GitHub Actions side of the App hand-off: dispatch the evaluator repository's workflow, read
 * its runs, fetch a run's report artifact, and point a check run at the run.
 */
import { z } from 'zod';
import type { RepoParts } from '../core/repo-name.ts';
import { type GitHub, httpStatus } from './octokit.ts';

/** The artifact the evaluator workflow uploads with the merged report (examples/workflows). */
export const REPORT_ARTIFACT = 'tandem-report';

/** A workflow run as the App keeps it (from a webhook or the REST API, through `workflowRunInfo`). */
export const workflowRunInfoSchema = z.object({
  id: z.number().int().positive(),
  /** The run's `run-name` (GitHub calls it `display_title`); carries `#<evaluation id>`. */
  title: z.string(),
  /** `.github/workflows/tandem.yml`, when GitHub says. */
  path: z.string().min(1).optional(),
  /** The run's page. */
  url: z.string().min(1),
  status: z.string().min(1),
  conclusion: z.string().nullable(),
  createdAt: z.string().min(1),
});
export type WorkflowRunInfo = z.infer<typeof workflowRunInfoSchema>;

/** The fields of a workflow run we rely on, from a `workflow_run` webhook or the REST API. */
export const workflowRunPayloadSchema = z.object({
  id: z.number().int(),
  display_title: z.string().nullish(),
  name: z.string().nullish(),
  path: z.string().nullish(),
  html_url: z.string(),
  status: z.string().nullish(),
  conclusion: z.string().nullish(),
  created_at: z.string(),
});

export function workflowRunInfo(payload: unknown): WorkflowRunInfo {
  const run = workflowRunPayloadSchema.parse(payload);
  return workflowRunInfoSchema.parse({
    id: run.id,
    title: run.display_title ?? run.name ?? '',
    ...(run.path ? { path: run.path } : {}),
    url: run.html_url,
    status: run.status ?? 'queued',
    conclusion: run.conclusion ?? null,
    createdAt: run.created_at,
  });
}

/** `workflow_dispatch`: needs only the `actions: write` permission (a `repository_dispatch` needs contents write). */
export async function dispatchWorkflow(
  gh: GitHub,
  repo: RepoParts,
  workflow: string,
  ref: string,
  inputs: Record<string, string>,
): Promise<void> {
  await gh.rest.actions.createWorkflowDispatch({ ...repo, workflow_id: workflow, ref, inputs });
}

export async function getWorkflowRun(
  gh: GitHub,
  repo: RepoParts,
  id: number,
): Promise<WorkflowRunInfo | undefined> {
  try {
    const { data } = await gh.rest.actions.getWorkflowRun({ ...repo, run_id: id });
    return workflowRunInfo(data);
  } catch (e) {
    if (httpStatus(e) === 404) return undefined;
    throw e;
  }
}

/** Runs of a workflow started by `workflow_dispatch` since a moment (newest first). */
export async function recentWorkflowRuns(
  gh: GitHub,
  repo: RepoParts,
  workflow: string,
  since: Date,
): Promise<WorkflowRunInfo[]> {
  const { data } = await gh.rest.actions.listWorkflowRuns({
    ...repo,
    workflow_id: workflow,
    event: 'workflow_dispatch',
    created: `>=${since.toISOString().replace(/\.\d{3}Z$/, 'Z')}`,
    per_page: 100,
  });
  return data.workflow_runs.map((r) => workflowRunInfo(r));
}

/** The zip of a run's artifact, or undefined when the run uploaded none (or it expired). */
export async function downloadRunArtifact(
  gh: GitHub,
  repo: RepoParts,
  runId: number,
  name: string,
): Promise<Buffer | undefined> {
  const { data } = await gh.rest.actions.listWorkflowRunArtifacts({
    ...repo,
    run_id: runId,
    name,
    per_page: 100,
  });
  const artifact = data.artifacts.find((a) => a.name === name && !a.expired);
  if (!artifact) return undefined;
  // GitHub answers 302 to blob storage; fetch follows it (without our Authorization header).
  const res = await gh.rest.actions.downloadArtifact({
    ...repo,
    artifact_id: artifact.id,
    archive_format: 'zip',
  });
  return Buffer.from(res.data as ArrayBuffer);
}

/** Keeps a check run `in_progress` and links it to where the evaluation happens. */
export async function linkCheckRun(
  gh: GitHub,
  repo: RepoParts,
  checkRunId: number,
  link: { url?: string; title: string; summary: string },
): Promise<void> {
  await gh.rest.checks.update({
    ...repo,
    check_run_id: checkRunId,
    status: 'in_progress',
    ...(link.url ? { details_url: link.url } : {}),
    output: { title: link.title.slice(0, 255), summary: link.summary },
  });
}
