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
  // Every alternative refuses the same unknown key (`haed`): that key is the fault, not the shape.
  const unknown = issue.errors.map((branch) => branch.find((i) => i.code === 'unrecognized_keys'));
  const first = unknown[0];
  if (
    first?.code === 'unrecognized_keys' &&
    unknown.every((u) => u?.code === 'unrecognized_keys' && u.keys.join() === first.keys.join())
  )
    return [
      { ...first, path: [...issue.path, ...first.path], message: `${first.message} (${issue.message})` },
    ];
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
  /** The schema parsed: an unknown key is answered with the nearest known one (`haed` → `head`). */
  schema?: z.ZodType;
}

/** The zod internals walked to find an object's keys: wrappers, arrays, unions, pipes. */
interface SchemaDef {
  type?: string;
  shape?: Record<string, unknown>;
  innerType?: z.ZodType;
  element?: z.ZodType;
  options?: z.ZodType[];
  in?: z.ZodType;
  valueType?: z.ZodType;
  getter?: () => z.ZodType;
}
const defOf = (s: unknown): SchemaDef => ((s as { _zod?: { def?: SchemaDef } })._zod?.def ?? {}) as SchemaDef;

/** The object schemas that can sit at `path` inside `schema` (several under a union). */
function objectsAt(schema: z.ZodType, path: ReadonlyArray<PropertyKey>, depth = 0): SchemaDef[] {
  if (depth > 64) return [];
  const def = defOf(schema);
  const inner = def.innerType ?? def.in ?? (def.type === 'lazy' ? def.getter?.() : undefined);
  if (inner) return objectsAt(inner, path, depth + 1);
  if (def.type === 'union' && def.options) return def.options.flatMap((o) => objectsAt(o, path, depth + 1));
  if (path.length === 0) return def.type === 'object' && def.shape ? [def] : [];
  const [head, ...rest] = path;
  if (def.type === 'array' && def.element) return objectsAt(def.element, rest, depth + 1);
  if (def.type === 'record' && def.valueType) return objectsAt(def.valueType, rest, depth + 1);
  const next = def.type === 'object' ? def.shape?.[String(head)] : undefined;
  return next ? objectsAt(next as z.ZodType, rest, depth + 1) : [];
}

/** Levenshtein distance, small strings only. */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length]!;
}

/** `Unrecognized key: "haed"; did you mean "head"?` when a known key is one or two edits away. */
function withSuggestion(issue: z.core.$ZodIssue, schema: z.ZodType | undefined): z.core.$ZodIssue {
  if (!schema || issue.code !== 'unrecognized_keys') return issue;
  const known = [...new Set(objectsAt(schema, issue.path).flatMap((d) => Object.keys(d.shape ?? {})))];
  const hints = issue.keys.flatMap((k) => {
    const best = known
      .map((n) => ({ n, d: distance(k.toLowerCase(), n.toLowerCase()) }))
      .filter((x) => x.d <= (x.n.length >= 4 ? 2 : 1))
      .sort((a, b) => a.d - b.d)[0];
    return best ? [`"${k}" → did you mean "${best.n}"?`] : [];
  });
  return hints.length > 0 ? { ...issue, message: `${issue.message}; ${hints.join('; ')}` } : issue;
}

export function describeIssues(error: z.ZodError, options: DescribeOptions = {}): IssueSummary {
  const label = options.label ?? fieldLabel;
  const pathOf = (i: z.core.$ZodIssue) => [...(options.prefix ? [options.prefix] : []), ...i.path];
  const issues = error.issues.flatMap(explainUnion).map((i) => withSuggestion(i, options.schema));
  // A misspelt key (`reops`) also makes its real key missing: the suggestion says what to fix.
  const suggested = (i: z.core.$ZodIssue) =>
    i.code === 'unrecognized_keys' && i.message.includes('did you mean');
  const [first, ...rest] = [...issues.filter(suggested), ...issues.filter((i) => !suggested(i))];
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
  throw inputErrorOf(parsed.error, where, { file: where, schema, ...(prefix ? { prefix } : {}) });
}
