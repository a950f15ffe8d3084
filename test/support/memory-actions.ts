/**
 * GitHub Actions in memory, for `MemoryGitHub` (memory-github.ts): the evaluator's workflows,
 * the dispatches the App made, the runs the test plays (the fake runs no workflows) and their
 * artifacts. Runs are built as GitHub's REST API sends them and read through the App's own
 * parser (`workflowRunInfo`), so the rooms see what the Octokit adapter would give them.
 */

import { repoKey } from '../../src/core/repo-name.ts';
import { type WorkflowRunInfo, workflowRunInfo } from '../../src/github/actions.ts';

export interface MemoryDispatch {
  repo: string;
  workflow: string;
  ref: string;
  inputs: Record<string, string>;
}

interface StoredRun {
  id: number;
  repo: string;
  workflow: string;
  title: string;
  event: string;
  status: string;
  conclusion: string | null;
  createdAt: string;
}

/** Thrown as Octokit would: `status` tells the rooms "not there" from trouble. */
export class MemoryActionsError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export class MemoryActions {
  readonly dispatches: MemoryDispatch[] = [];
  /** Called after each accepted dispatch: a test plays the runner here (adds the run). */
  onDispatch: (d: MemoryDispatch) => void = () => {};
  private readonly workflows = new Set<string>();
  private readonly runs: StoredRun[] = [];
  private readonly artifacts = new Map<string, Buffer>();
  private nextRunId = 1000;

  /** A workflow file (`tandem.yml`) of `repo` that accepts `workflow_dispatch`. */
  addWorkflow(repo: string, workflow: string): void {
    this.workflows.add(`${repoKey(repo)} ${workflow}`);
  }

  /** A run of `workflow` (as the runner would start it); `id` to mirror another backend's. */
  addRun(input: {
    repo: string;
    workflow: string;
    title: string;
    id?: number;
    event?: string;
    status?: string;
    conclusion?: string | null;
    createdAt?: string;
  }): WorkflowRunInfo {
    const run: StoredRun = {
      id: input.id ?? this.nextRunId++,
      repo: input.repo,
      workflow: input.workflow,
      title: input.title,
      event: input.event ?? 'workflow_dispatch',
      status: input.status ?? 'queued',
      conclusion: input.conclusion ?? null,
      createdAt: input.createdAt ?? new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
    };
    this.runs.push(run);
    return this.info(run);
  }

  updateRun(id: number, patch: { status?: string; conclusion?: string | null }): WorkflowRunInfo {
    const run = this.runs.find((r) => r.id === id);
    if (!run) throw new Error(`no workflow run ${id}`);
    Object.assign(run, patch);
    return this.info(run);
  }

  addArtifact(repo: string, runId: number, name: string, zip: Buffer): void {
    this.artifacts.set(`${repoKey(repo)} ${runId} ${name}`, zip);
  }

  dispatch(repo: string, workflow: string, ref: string, inputs: Record<string, string>): void {
    if (!this.workflows.has(`${repoKey(repo)} ${workflow}`))
      throw new MemoryActionsError(404, `Not Found: no workflow ${workflow} in ${repo}`);
    const d = { repo, workflow, ref, inputs };
    this.dispatches.push(d);
    this.onDispatch(d);
  }

  run(repo: string, id: number): WorkflowRunInfo | undefined {
    const run = this.runs.find((r) => r.id === id && repoKey(r.repo) === repoKey(repo));
    return run && this.info(run);
  }

  recent(repo: string, workflow: string, since: Date): WorkflowRunInfo[] {
    // GitHub's `created` filter has second precision.
    const from = Math.floor(since.getTime() / 1000) * 1000;
    return this.runs
      .filter((r) => repoKey(r.repo) === repoKey(repo) && r.workflow === workflow)
      .filter((r) => r.event === 'workflow_dispatch' && Date.parse(r.createdAt) >= from)
      .sort((a, b) => b.id - a.id)
      .map((r) => this.info(r));
  }

  artifact(repo: string, runId: number, name: string): Buffer | undefined {
    return this.artifacts.get(`${repoKey(repo)} ${runId} ${name}`);
  }

  /** The run as GitHub's REST API sends it, through the App's parser. */
  private info(r: StoredRun): WorkflowRunInfo {
    return workflowRunInfo({
      id: r.id,
      name: 'Tandem',
      display_title: r.title,
      path: `.github/workflows/${r.workflow}`,
      html_url: `https://github.test/${r.repo}/actions/runs/${r.id}`,
      status: r.status,
      conclusion: r.conclusion,
      created_at: r.createdAt,
    });
  }
}
