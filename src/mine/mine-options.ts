/**
 * The options of `tandem mine git|github`, checked with zod at the boundary: dates, durations,
 * limits, `--repo owner/name=URL[@ref]` specs. Every message names the flag.
 */
import { z } from 'zod';
import { sandboxKindSchema } from '../core/evaluation-request.schema.ts';
import { DEFAULT_MIN_SCORE } from '../core/link-score.ts';
import { splitRepo } from '../core/repo-name.ts';
import { flagLabel, inputErrorOf } from '../core/zod-issues.ts';
import { parseWindow } from './link-graph.ts';

const date = () =>
  z.string().transform((s, ctx) => {
    const d = new Date(s);
    if (Number.isNaN(d.getTime())) {
      ctx.addIssue({ code: 'custom', message: `expected a date like 2024-01-31, got "${s}"` });
      return z.NEVER;
    }
    return d;
  });

const count = () =>
  z
    .string()
    .regex(/^[1-9]\d*$/, 'expected a whole number ≥ 1')
    .transform(Number);

const repoName = z.string().refine((s) => splitRepo(s) !== undefined, 'expected owner/name');

/** `owner/name=URL[@ref]`; an `@` inside the URL's user part (`https://token@host/…`) is not a ref. */
export function parseRepoSpec(spec: string): { repo: string; url: string; ref?: string } | undefined {
  const eq = spec.indexOf('=');
  if (eq <= 0) return undefined;
  const repo = spec.slice(0, eq);
  let url = spec.slice(eq + 1);
  let ref: string | undefined;
  const at = url.lastIndexOf('@');
  if (at > 0) {
    const before = url.slice(0, at);
    const after = url.slice(at + 1);
    const userInfo = /^[a-z][a-z0-9+.-]*:\/\/[^/]*$/i.test(before) || !before.includes('/');
    if (!userInfo && after && !after.includes(':')) {
      url = before;
      ref = after;
    }
  }
  if (!splitRepo(repo) || !url) return undefined;
  return { repo, url, ...(ref ? { ref } : {}) };
}

const common = {
  since: date(),
  until: date().optional(),
  out: z.string().min(1).default('candidates.jsonl'),
  screenedOut: z.string().min(1).optional(),
  maxRepos: count().default(5),
  maxFiles: count().default(40),
  maxLines: count().default(1500),
  testGlob: z.array(z.string().min(1)).optional(),
  window: z
    .string()
    .default('14d')
    .transform((s, ctx) => {
      const ms = parseWindow(s);
      if (ms === undefined) {
        ctx.addIssue({ code: 'custom', message: `expected a duration like 14d, 36h or 90m, got "${s}"` });
        return z.NEVER;
      }
      return ms;
    }),
  suiteTemplate: z.string().min(1).optional(),
  cacheDir: z.string().min(1).optional(),
  minScore: z
    .string()
    .default(String(DEFAULT_MIN_SCORE))
    .transform((s, ctx) => {
      const n = Number(s);
      if (!/^\d*\.?\d+$/.test(s.trim()) || n < 0 || n > 1) {
        ctx.addIssue({ code: 'custom', message: `expected a score from 0 to 1, got "${s}"` });
        return z.NEVER;
      }
      return n;
    }),
  /** A suite template: the candidates are run by `tandem bench validate` and only valid ones kept. */
  validate: z.string().min(1).optional(),
  validateRuns: count().default(2),
  jobs: count().optional(),
  sandbox: sandboxKindSchema.default('docker'),
};

export const mineGitOptionsSchema = z.object({
  ...common,
  repo: z
    .array(
      z.string().transform((s, ctx) => {
        const spec = parseRepoSpec(s);
        if (!spec) {
          ctx.addIssue({ code: 'custom', message: `expected owner/name=URL[@ref], got "${s}"` });
          return z.NEVER;
        }
        return spec;
      }),
    )
    .min(2, 'give at least two repositories (owner/name=URL[@ref]), each with its own --repo'),
});

export const mineGitHubOptionsSchema = z.object({
  ...common,
  org: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9-]*$/, 'expected an organization login'),
  repo: z.array(repoName).optional(),
  apiUrl: z.string().url('expected a URL like https://ghe.example.com/api/v3').optional(),
});

export type MineGitFlags = z.output<typeof mineGitOptionsSchema>;
export type MineGitHubFlags = z.output<typeof mineGitHubOptionsSchema>;

/** Parses raw flags (commander's camelCase object) or throws the InputError naming the flag. */
export function parseMineFlags<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  // Fields are flags here: `maxRepos` is named `option --max-repos`.
  throw inputErrorOf(parsed.error, 'mine', { label: flagLabel });
}
