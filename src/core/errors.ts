import { errorText } from './error-text.ts';
import type { InfraErrorInfo, InfraErrorKind } from './run.schema.ts';

/** Bad input from the user: a case, suite, config or flag. CLI exit code 2. */
export class InputError extends Error {
  override readonly name = 'InputError';
  constructor(
    message: string,
    /** The file at fault, when there is one. */
    readonly file?: string,
    /** The field path at fault (`targets[1].base`), when there is one. */
    readonly field?: string,
  ) {
    super(message);
  }
}

/** Machinery trouble (git, Docker, parse of a result file). CLI exit code 3. */
export class InfraError extends Error {
  override readonly name = 'InfraError';
  constructor(
    readonly kind: InfraErrorKind,
    message: string,
    readonly details: { target?: string; files?: string[]; configuration?: string } = {},
  ) {
    super(message);
  }
}

/** Formats a zod issue path the way users write fields: `targets[1].base`. */
export function formatFieldPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else out += out ? `.${String(p)}` : String(p);
  }
  return out || '(root)';
}

/** Any thrown error as a report's infrastructure error: what the machinery could not do. */
export function infraInfo(err: unknown, target?: string): InfraErrorInfo {
  if (err instanceof InfraError) {
    return {
      kind: err.kind,
      message: err.message,
      ...((err.details.target ?? target) ? { target: err.details.target ?? target } : {}),
      ...(err.details.files?.length ? { files: err.details.files } : {}),
    };
  }
  return { kind: 'engine', message: errorText(err), ...(target ? { target } : {}) };
}
