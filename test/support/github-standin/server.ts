/**
 * The stand-in's request pipeline: `/api/v3` prefix, injected rate limits and failures, routing,
 * authentication, JSON parsing, GitHub's headers on every answer, and the request log.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TokenBook } from './auth.ts';
import { type Caller, DOCS, HttpError, match, type Route, type RouteResult } from './http.ts';
import type { ShapeContext } from './shapes.ts';
import type { RequestLogEntry, StandInState } from './state.ts';

export interface FailRule {
  status: number;
  message?: string;
  method?: string;
  /** Matched against the path without `/api/v3` and query; a string must be equal. */
  path?: RegExp | string;
  remaining: number;
}

/** Requests that wait, unanswered, until the test releases them (GitHub being slow on one route). */
export interface HoldRule {
  method?: string;
  path?: RegExp | string;
  /** Requests waiting now. */
  waiting: number;
  /** Resolves when the test releases the rule (every waiting and later request goes on). */
  released: Promise<void>;
  /** Set once released: the rule holds nothing more. */
  done: boolean;
  release: () => void;
}

export interface Injections {
  rateLimit: { remaining: number; kind: 'primary' | 'secondary' };
  failures: FailRule[];
  holds: HoldRule[];
}

export interface Limits {
  core: number;
  /** Simulated secondary limit: content-creating requests allowed in any minute (absent: none). */
  contentPerMinute?: number;
}

/** What GitHub counts as content-creating (and notifies about): new comments, issues, pulls, merges, reviews. */
const CONTENT_PATH = /\/(issues|pulls)(\/[^/]+\/(comments|merge|reviews|requested_reviewers))?$|\/comments$/;

export class Pipeline {
  private used = { core: 0, search: 0 };
  private windowReset = Math.floor(Date.now() / 1000) + 3600;
  private searchReset = Math.floor(Date.now() / 1000) + 60;
  /** When the content-creating requests of the last minute were accepted, oldest first. */
  private readonly contentAt: number[] = [];
  /** Requests answered 403 by the simulated secondary limit. */
  secondaryLimited = 0;

  constructor(
    private readonly routes: Route[],
    private readonly tokens: TokenBook,
    private readonly state: StandInState,
    private readonly shapes: ShapeContext,
    readonly injections: Injections,
    private readonly limits: Limits = { core: 5000 },
  ) {}

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const method = (req.method ?? 'GET').toUpperCase();
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`);
    // Probot with GHE_HOST talks to `/api/v3/...`; github.com-style clients to `/...`.
    const path = url.pathname.replace(/^\/api\/v3(?=\/|$)/, '') || '/';
    const resource = path.startsWith('/search/') ? 'search' : 'core';
    const entry: RequestLogEntry = { method, path, query: url.search, status: 0 };

    let result: RouteResult;
    let caller: Caller = { kind: 'anonymous' };
    try {
      await this.heldBack(method, path);
      this.injected(method, path);
      const found = match(this.routes, method, path);
      if (!found.route) throw new HttpError(404, 'Not Found');
      if (found.route.auth !== 'none') {
        caller = this.tokens.identify(req.headers);
        entry.installationId = caller.installationId;
        if (caller.kind === 'anonymous') throw new HttpError(401, 'Requires authentication');
        if (found.route.auth === 'jwt' && caller.kind !== 'jwt') {
          throw new HttpError(401, 'A JSON web token could not be decoded');
        }
        if (found.route.auth === 'token' && caller.kind === 'jwt') {
          throw new HttpError(403, 'Resource not accessible by integration');
        }
      }
      let body: unknown;
      if (raw.length > 0) {
        try {
          body = JSON.parse(raw.toString('utf8'));
        } catch {
          throw new HttpError(400, 'Problems parsing JSON');
        }
      }
      entry.body = body;
      // GitHub's search budget is per minute; the core one per hour.
      if (resource === 'search' && Date.now() >= this.searchReset * 1000) {
        this.used.search = 0;
        this.searchReset = Math.floor(Date.now() / 1000) + 60;
      }
      this.used[resource] += 1;
      result = await found.route.handler({
        params: found.params,
        query: url.searchParams,
        body,
        headers: req.headers,
        caller,
        url,
        shapes: this.shapes,
        state: this.state,
      });
    } catch (err) {
      result = this.errorResult(err, caller);
    }
    entry.status = result.status;
    // What was answered, so tests can hold requests and responses to GitHub's OpenAPI description.
    if (result.body !== undefined) entry.response = result.body;
    this.state.requests.push(entry);
    this.state.answered();
    this.write(res, result, resource);
  }

  /** Waits while a hold rule matches this request. */
  private async heldBack(method: string, path: string): Promise<void> {
    const rule = this.injections.holds.find(
      (h) =>
        !h.done &&
        (!h.method || h.method.toUpperCase() === method) &&
        (h.path === undefined || (typeof h.path === 'string' ? h.path === path : h.path.test(path))),
    );
    if (!rule) return;
    rule.waiting += 1;
    await rule.released;
    rule.waiting -= 1;
  }

  /** Throws the injected rate limit or failure for this request, if one is pending. */
  private injected(method: string, path: string): void {
    if (path.startsWith('/_blobs/')) return;
    const rl = this.injections.rateLimit;
    if (rl.remaining > 0) {
      rl.remaining -= 1;
      const reset = Math.floor(Date.now() / 1000) + 1;
      if (rl.kind === 'secondary') {
        throw new HttpError(
          429,
          'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
          {
            headers: { 'retry-after': '1' },
          },
        );
      }
      throw new HttpError(403, 'API rate limit exceeded for installation.', {
        headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset + 1) },
        documentation_url: 'https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting',
      });
    }
    const rule = this.injections.failures.find(
      (f) =>
        f.remaining > 0 &&
        (!f.method || f.method.toUpperCase() === method) &&
        (f.path === undefined || (typeof f.path === 'string' ? f.path === path : f.path.test(path))),
    );
    if (rule) {
      rule.remaining -= 1;
      throw new HttpError(rule.status, rule.message ?? 'Injected failure');
    }
    this.contentLimit(method, path);
  }

  /** GitHub's secondary limit on content creation, when simulated: 403 with `retry-after` past it. */
  private contentLimit(method: string, path: string): void {
    const max = this.limits.contentPerMinute;
    if (max === undefined || method === 'GET' || !CONTENT_PATH.test(path)) return;
    const now = Date.now();
    while (this.contentAt.length > 0 && this.contentAt[0]! <= now - 60_000) this.contentAt.shift();
    if (this.contentAt.length >= max) {
      this.secondaryLimited += 1;
      const retryAfter = Math.max(1, Math.ceil((this.contentAt[0]! + 60_000 - now) / 1000));
      throw new HttpError(
        403,
        'You have exceeded a secondary rate limit and have been temporarily blocked from content creation. Please retry your request again later.',
        { headers: { 'retry-after': String(retryAfter) } },
      );
    }
    this.contentAt.push(now);
  }

  private errorResult(err: unknown, caller: Caller): RouteResult {
    if (err instanceof HttpError) {
      const { headers, documentation_url, ...extra } = err.extra as {
        headers?: Record<string, string>;
        documentation_url?: string;
      };
      return {
        status: err.status,
        body: {
          message: err.message,
          ...extra,
          documentation_url: documentation_url ?? DOCS,
          status: String(err.status),
        },
        headers: headers ?? {},
      };
    }
    // A bug in the stand-in: answer 500 like GitHub would, and keep the cause visible in the body.
    return {
      status: 500,
      body: { message: `stand-in error: ${(err as Error)?.stack ?? String(err)}`, caller: caller.kind },
    };
  }

  private limit(resource: 'core' | 'search'): number {
    return resource === 'core' ? this.limits.core : 30;
  }

  private write(res: ServerResponse, result: RouteResult, resource: 'core' | 'search'): void {
    const headers: Record<string, string> = {
      'x-github-request-id': randomBytes(8).toString('hex').toUpperCase(),
      'x-github-media-type': 'github.v3; format=json',
      'x-github-api-version-selected': '2022-11-28',
      'x-ratelimit-limit': String(this.limit(resource)),
      'x-ratelimit-remaining': String(Math.max(0, this.limit(resource) - this.used[resource])),
      'x-ratelimit-reset': String(resource === 'search' ? this.searchReset : this.windowReset),
      'x-ratelimit-used': String(this.used[resource]),
      'x-ratelimit-resource': resource,
      ...(result.headers ?? {}),
    };
    let payload: Buffer | string | undefined;
    if (result.raw !== undefined) {
      payload = result.raw;
      headers['content-type'] = result.contentType ?? 'application/octet-stream';
    } else if (result.body !== undefined) {
      payload = JSON.stringify(result.body);
      headers['content-type'] = 'application/json; charset=utf-8';
    }
    if (payload !== undefined) headers['content-length'] = String(Buffer.byteLength(payload));
    res.writeHead(result.status, headers);
    res.end(payload);
  }
}
