/**
 * zod issues → one message a user can act on, the same from every face: the first problem leads
 * and names its field, a few more follow so one pass fixes most. The CLI, the App and the Action
 * get the same detailed text for the same bad file. Pure.
 */
import type { z } from 'zod';
import { formatFieldPath, InputError } from './errors.ts';

/** How many issues a message lists after the first one. */
export const MORE_ISSUES_SHOWN = 4;

/** How an issue's place is named: `field "targets[1].base"` unless a face says otherwise. */
export type IssueLabel = (path: ReadonlyArray<PropertyKey>) => string;

export const fieldLabel: IssueLabel = (path) => `field "${formatFieldPath(path)}"`;

/** `cacheDir` → `option --cache-dir`: a command's flags are validated as fields named in camelCase. */
export const flagLabel: IssueLabel = (path) =>
  `option --${String(path[0] ?? 'options').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/**
 * A failed union said by its closest alternative (`head` vs `patch` targets): the branch with the
 * fewest issues, unless the branches tie or failed on the input's type, where the union's own
 * message says it better.
 */
export function explainUnion(issue: z.core.$ZodIssue): z.core.$ZodIssue[] {
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return [issue];
  const [closest, runnerUp] = [...issue.errors].sort((a, b) => a.length - b.length);
  if (!closest || closest.length === runnerUp?.length || closest.every((i) => i.path.length === 0)) {
    return [issue];
  }
  return closest.map((i) => ({ ...i, path: [...issue.path, ...i.path] }));
}

export interface IssueSummary {
  /** The first issue's field path (`targets[1].base`), for InputError.field. */
  field: string;
  /** `field "a": message`, then up to MORE_ISSUES_SHOWN more lines, then `(and N more)`. */
  text: string;
  /** `text` without the first label, for callers that name the field themselves. */
  detail: string;
}

export interface DescribeOptions {
  /** Path segment the issues sit under (`suite` for a case's inline suite). */
  prefix?: string;
  label?: IssueLabel;
}

export function describeIssues(error: z.ZodError, options: DescribeOptions = {}): IssueSummary {
  const label = options.label ?? fieldLabel;
  const pathOf = (i: z.core.$ZodIssue) => [...(options.prefix ? [options.prefix] : []), ...i.path];
  const [first, ...rest] = error.issues.flatMap(explainUnion);
  if (!first) return { field: '(root)', text: `${label([])}: invalid`, detail: 'invalid' };
  const more = rest.slice(0, MORE_ISSUES_SHOWN).map((i) => `\n  ${label(pathOf(i))}: ${i.message}`);
  if (rest.length > MORE_ISSUES_SHOWN) more.push(`\n  (and ${rest.length - MORE_ISSUES_SHOWN} more)`);
  const detail = `${first.message}${more.join('')}`;
  return { field: formatFieldPath(pathOf(first)), text: `${label(pathOf(first))}: ${detail}`, detail };
}

/** The InputError for a failed parse of `where` (a file path; empty when the label says it all). */
export function inputErrorOf(
  error: z.ZodError,
  where: string,
  options: DescribeOptions & { file?: string } = {},
): InputError {
  const { field, text } = describeIssues(error, options);
  return new InputError(where ? `${where}: ${text}` : text, options.file, field);
}

/** Parses `data` or throws the InputError naming `where` (the file) and the fields at fault. */
export function validate<S extends z.ZodType>(
  schema: S,
  data: unknown,
  where: string,
  prefix = '',
): z.output<S> {
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  throw inputErrorOf(parsed.error, where, { file: where, ...(prefix ? { prefix } : {}) });
}
