/**
 * What GitHub refuses on `POST /repos/{o}/{r}/actions/workflows/{id}/dispatches`, with its
 * status and message: a ref that does not exist (422), a workflow file missing at that ref
 * (404), a workflow without a `workflow_dispatch` trigger (422), inputs the workflow does not
 * declare, more than 25 inputs, a required input left out (422). The workflow is read from the
 * stand-in's files at the ref, as GitHub reads it from the repository.
 */
import { parse } from 'yaml';
import { z } from 'zod';
import { HttpError, notFound } from './http.ts';
import type { RepoRecord, StandInState } from './state.ts';

/** GitHub's cap on `inputs` of one workflow dispatch (raised from 10 to 25 in 2025). */
export const MAX_DISPATCH_INPUTS = 25;

const inputsSchema = z.record(z.string(), z.object({ required: z.boolean().optional() }).loose().nullable());
const triggerSchema = z.union([
  z.string(),
  z.array(z.string()),
  z.record(z.string(), z.object({ inputs: inputsSchema.optional() }).loose().nullable()),
]);

function declaredInputs(on: unknown): z.infer<typeof inputsSchema> | undefined {
  const t = triggerSchema.safeParse(on);
  if (!t.success) return undefined;
  if (typeof t.data === 'string') return t.data === 'workflow_dispatch' ? {} : undefined;
  if (Array.isArray(t.data)) return t.data.includes('workflow_dispatch') ? {} : undefined;
  if (!('workflow_dispatch' in t.data)) return undefined;
  return t.data.workflow_dispatch?.inputs ?? {};
}

const unprocessable = (message: string) => new HttpError(422, message);

export function checkWorkflowDispatch(
  state: StandInState,
  repo: RepoRecord,
  workflow: string,
  rawRef: string,
  inputs: Record<string, unknown>,
): void {
  const ref = rawRef.replace(/^refs\/(heads|tags)\//, '');
  const tree = state.tree(repo.owner, repo.name, ref);
  if (!tree && ref !== repo.defaultBranch) throw unprocessable(`No ref found for: ${rawRef}`);
  const file = tree?.get(`.github/workflows/${workflow}`);
  if (!file) throw notFound();
  const doc = parse(file.toString('utf8')) as { on?: unknown } | null;
  const declared = declaredInputs(doc?.on);
  if (!declared) throw unprocessable("Workflow does not have 'workflow_dispatch' trigger");
  const given = Object.keys(inputs);
  if (given.length > MAX_DISPATCH_INPUTS)
    throw unprocessable(`Too many inputs provided: ${given.length} (at most ${MAX_DISPATCH_INPUTS})`);
  const unexpected = given.filter((k) => !(k in declared));
  if (unexpected.length > 0) throw unprocessable(`Unexpected inputs provided: ${JSON.stringify(unexpected)}`);
  const missing = Object.entries(declared).find(([k, d]) => d?.required && !(k in inputs));
  if (missing) throw unprocessable(`Required input '${missing[0]}' not provided`);
}
