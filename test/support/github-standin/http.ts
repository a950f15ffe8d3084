/**
 * A tiny router and GitHub-style responses for the stand-in: path templates with `{param}` (and
 * `{path+}` for a slash-spanning tail), GitHub's error bodies, Link pagination, zod body validation.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { z } from 'zod';
import type { ShapeContext } from './shapes.ts';
import type { StandInState } from './state.ts';

export const DOCS = 'https://docs.github.com/rest';

export type AuthNeed = 'jwt' | 'token' | 'none';

export interface Caller {
  kind: 'jwt' | 'token' | 'anonymous';
  /** Set when the token was minted for an installation; undefined for static test tokens. */
  installationId?: number;
  /** Who writes comments and reactions: `<slug>[bot]` for installation tokens. */
  login?: string;
}

export interface RouteContext {
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  headers: IncomingHttpHeaders;
  caller: Caller;
  /** The request's own URL, absolute, as the client addressed it (keeps any `/api/v3` prefix). */
  url: URL;
  shapes: ShapeContext;
  state: StandInState;
}

export interface RouteResult {
  status: number;
  body?: unknown;
  /** Sent as is (no JSON encoding) with `contentType`. */
  raw?: Buffer | string;
  contentType?: string;
  headers?: Record<string, string>;
}

export type Handler = (ctx: RouteContext) => RouteResult | Promise<RouteResult>;

export interface Route {
  method: string;
  auth: AuthNeed;
  regex: RegExp;
  names: string[];
  handler: Handler;
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const notFound = (): HttpError => new HttpError(404, 'Not Found');

/** `route('GET', '/repos/{owner}/{repo}/contents/{path+}', 'token', h)`. */
export function route(method: string, template: string, auth: AuthNeed, handler: Handler): Route {
  const names: string[] = [];
  const source = template.replace(/\{(\w+)(\+?)\}/g, (_m, name: string, plus: string) => {
    names.push(name);
    return plus ? '(.+)' : '([^/]+)';
  });
  return { method, auth, regex: new RegExp(`^${source}/?$`), names, handler };
}

export function match(routes: Route[], method: string, path: string) {
  let pathMatched = false;
  for (const r of routes) {
    const m = r.regex.exec(path);
    if (!m) continue;
    pathMatched = true;
    if (r.method !== method) continue;
    const params: Record<string, string> = {};
    r.names.forEach((n, i) => {
      params[n] = decodeURIComponent(m[i + 1] ?? '');
    });
    return { route: r, params };
  }
  return { route: undefined, pathMatched };
}

/** GitHub's 422 body: `{message: 'Validation Failed', errors: [{resource, field, code, message}]}`. */
export function validate<T extends z.ZodType>(schema: T, body: unknown, resource: string): z.infer<T> {
  const parsed = schema.safeParse(body ?? {});
  if (parsed.success) return parsed.data;
  throw new HttpError(422, 'Validation Failed', {
    errors: parsed.error.issues.map((i) => ({
      resource,
      field: i.path.join('.'),
      code: i.code === 'invalid_type' && i.input === undefined ? 'missing_field' : 'invalid',
      message: i.message,
    })),
  });
}

export function intParam(value: string | undefined): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw notFound();
  return n;
}

/**
 * Slices `items` by `page`/`per_page` (default 30, max 100, as GitHub) and builds the Link header
 * from the request's own URL so Octokit's paginator follows it under `/api/v3` too.
 */
export function paginate<T>(ctx: RouteContext, items: T[]): { page: T[]; headers: Record<string, string> } {
  const perPage = Math.min(100, Math.max(1, Number(ctx.query.get('per_page') ?? 30) || 30));
  const pageNo = Math.max(1, Number(ctx.query.get('page') ?? 1) || 1);
  const last = Math.max(1, Math.ceil(items.length / perPage));
  const page = items.slice((pageNo - 1) * perPage, pageNo * perPage);
  const link = (n: number, rel: string) => {
    const u = new URL(ctx.url);
    u.searchParams.set('page', String(n));
    if (ctx.query.has('per_page')) u.searchParams.set('per_page', String(perPage));
    return `<${u.toString()}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (pageNo > 1) links.push(link(pageNo - 1, 'prev'));
  if (pageNo < last) links.push(link(pageNo + 1, 'next'), link(last, 'last'));
  if (pageNo > 1) links.push(link(1, 'first'));
  return { page, headers: links.length > 0 ? { link: links.join(', ') } : {} };
}
