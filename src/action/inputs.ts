/**
 * The Action's inputs, validated with zod. Every error names the input it is about
 * (`input "shard": expected "i/n"`), so a workflow author knows which line of the workflow to fix.
 *
 * Modes, by which inputs are set:
 * - `merge: <globs>` — combine shard reports into one report and verdict;
 * - `plan: <n>` with `case` or `pull-requests` — only print the shards for a workflow matrix;
 * - otherwise evaluate `case` or `pull-requests` (all of the matrix, or the share `shard: i/n`).
 * When neither `case` nor `pull-requests` is given, the linked change (and its `context`) may
 * come from the event that started the workflow (see event.ts).
 */

import { z } from 'zod';
import type { ContextRef } from '../core/context-ref.ts';
import { InputError } from '../core/errors.ts';
import { MAX_RERUNS } from '../core/evaluation-request.schema.ts';
import { type MatrixMode, matrixModeSchema } from '../core/matrix-mode.ts';
import type { PullRef } from '../core/pull-ref.ts';
import { MAX_SHARDS, type Shard, shardSchema } from '../core/shard-plan.ts';
import { describeIssues } from '../core/zod-issues.ts';
import type { Reveal } from '../report/report-view.ts';
import { changeFromEvent } from './event.ts';
import { contextSchema, pullRequestsSchema } from './input-lists.ts';

/** Where inputs come from: `core.getInput` and `github.context.payload` in a step. */
export interface InputSource {
  /** The input's value, trimmed; '' when not given. */
  input(name: string): string;
  /** The triggering event, for the linked change when no input names one. */
  eventPayload?: unknown;
}

export type ChangeSource =
  | { kind: 'case'; file: string }
  | { kind: 'pull-requests'; pulls: PullRef[]; context: ContextRef[] };

export type ActionInputs =
  | {
      mode: 'evaluate';
      source: ChangeSource;
      suite?: string;
      token?: string;
      matrix: MatrixMode;
      reruns: number;
      shard?: Shard;
      report: string;
      reveal: Reveal;
    }
  | { mode: 'plan'; source: ChangeSource; suite?: string; matrix: MatrixMode; shards: number }
  | { mode: 'merge'; patterns: string[]; report: string; reveal: Reveal };

const NAMES = [
  'case',
  'pull-requests',
  'context',
  'suite',
  'token',
  'matrix',
  'shard',
  'report',
  'reruns',
  'merge',
  'plan',
  'reveal',
] as const;
type InputName = (typeof NAMES)[number];

const wholeNumber = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, `expected a whole number from ${min} to ${max}`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `expected a whole number from ${min} to ${max}`);

const rawSchema = z.object({
  case: z.string().optional(),
  'pull-requests': pullRequestsSchema.optional(),
  context: contextSchema.optional(),
  suite: z.string().optional(),
  token: z.string().optional(),
  matrix: z
    .enum(matrixModeSchema.options, { error: 'expected "full", "leave-one-out" or "auto"' })
    .default('auto'),
  shard: shardSchema.optional(),
  report: z.string().optional(),
  reruns: wholeNumber(0, MAX_RERUNS).optional(),
  merge: z.string().optional(),
  plan: wholeNumber(1, MAX_SHARDS).optional(),
  // `names` by default: the Action runs where the suite lives, so its summary is as visible as the tests.
  reveal: z
    .enum(['counts', 'names', 'messages'], { error: 'expected "counts", "names" or "messages"' })
    .default('names'),
});

function fail(name: InputName, message: string): never {
  throw new InputError(`input "${name}": ${message}`, undefined, name);
}

/**
 * A runner evaluates `${{ … }}` in action.yml defaults (`token: ${{ github.token }}`); a local
 * runner (`@github/local-action`) passes them on verbatim. Such a value was not given.
 */
const UNEVALUATED = /^\$\{\{.*\}\}$/s;

/** Reads and validates the inputs; throws InputError naming the input. */
export function readInputs(from: InputSource): ActionInputs {
  const given: Partial<Record<InputName, string>> = {};
  for (const name of NAMES) {
    const value = from.input(name);
    if (value !== '' && !UNEVALUATED.test(value)) given[name] = value;
  }
  if (given.case === undefined && given['pull-requests'] === undefined && given.merge === undefined) {
    const fromEvent = changeFromEvent(from.eventPayload);
    if (fromEvent) {
      given['pull-requests'] = fromEvent.pullRequests;
      // The context goes with the PRs it was sent with; an explicit input still wins.
      if (given.context === undefined && fromEvent.context) given.context = fromEvent.context;
    }
  }
  const parsed = rawSchema.safeParse(given);
  if (!parsed.success) {
    const { field, text } = describeIssues(parsed.error, {
      label: (p) => `input "${String(p[0] ?? 'case')}"`,
    });
    throw new InputError(text, undefined, field);
  }
  const v = parsed.data;

  if (v.merge !== undefined) {
    for (const other of ['case', 'pull-requests', 'context', 'shard', 'plan'] as const) {
      if (v[other] !== undefined)
        fail(other, 'cannot be combined with "merge" (the merge job only reads shard reports)');
    }
    const patterns = v.merge
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    return { mode: 'merge', patterns, report: v.report ?? 'tandem-report.json', reveal: v.reveal };
  }

  if (v.case !== undefined && v['pull-requests'] !== undefined) {
    fail('pull-requests', 'give either "case" or "pull-requests", not both');
  }
  let source: ChangeSource;
  if (v.case !== undefined) {
    if (v.suite !== undefined)
      fail('suite', 'the case file names its own suite; "suite" goes with "pull-requests"');
    if (v.context !== undefined)
      fail('context', 'the case file names its own context; "context" goes with "pull-requests"');
    source = { kind: 'case', file: v.case };
  } else if (v['pull-requests'] !== undefined) {
    if (v.suite === undefined)
      fail('suite', 'required with "pull-requests" (the suite file in this repository)');
    source = { kind: 'pull-requests', pulls: v['pull-requests'], context: v.context ?? [] };
  } else {
    fail('case', 'give "case" (a case file) or "pull-requests" (lines of "owner/repo#N"), or "merge"');
  }
  const suite = v.suite !== undefined ? { suite: v.suite } : {};

  if (v.plan !== undefined) {
    if (v.shard !== undefined)
      fail('shard', 'cannot be combined with "plan" (the plan job runs no configuration)');
    return { mode: 'plan', source, ...suite, matrix: v.matrix, shards: v.plan };
  }
  if (source.kind === 'pull-requests' && v.token === undefined)
    fail('token', 'required with "pull-requests" (it reads the pull requests and clones their repositories)');
  const shard = v.shard;
  return {
    mode: 'evaluate',
    source,
    ...suite,
    ...(v.token !== undefined ? { token: v.token } : {}),
    matrix: v.matrix,
    reruns: v.reruns ?? 0,
    reveal: v.reveal,
    ...(shard ? { shard } : {}),
    // Shard reports get distinct default names so a merge job can download them into one folder.
    report:
      v.report ?? (shard ? `tandem-partial-${shard.index}-of-${shard.count}.json` : 'tandem-report.json'),
  };
}
