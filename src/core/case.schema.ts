import { z } from 'zod';
import { suiteSchema } from './suite.schema.ts';

/** `owner/name`, the way cases, reports and the App name repositories. */
export const repoNameSchema = z
  .string()
  .regex(/^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)?$/, 'expected a repository name like "owner/name"')
  // `acme/..` would name a workspace folder outside the workspace (issue 8).
  .refine(
    (n) => n.split('/').every((part) => part !== '.' && part !== '..'),
    'expected a repository name like "owner/name", not "." or ".."',
  );

const targetCommon = {
  repo: repoNameSchema,
  url: z.string().min(1, 'expected a git URL or a local path'),
  base: z.string().min(1, 'expected a branch, tag or commit SHA'),
};

export const branchTargetSchema = z
  .object({
    ...targetCommon,
    head: z.string().min(1, 'expected a branch, tag or commit SHA'),
    /** Merge head onto base, as GitHub's merge ref does, instead of taking the branch tip. */
    merge: z.boolean().default(false),
  })
  .strict();

export const patchTargetSchema = z
  .object({
    ...targetCommon,
    /** A unified diff file (path relative to the case file) applied onto base. */
    patch: z.string().min(1, 'expected a path to a unified diff'),
  })
  .strict();

export const targetSchema = z.union([branchTargetSchema, patchTargetSchema], {
  error: 'expected {repo, url, base, head} or {repo, url, base, patch}',
});

export const contextRepoSchema = z
  .object({
    repo: repoNameSchema,
    url: z.string().min(1),
    ref: z.string().min(1),
  })
  .strict();

export const caseFileSchema = z
  .object({
    name: z.string().min(1),
    /** A path to a suite file (relative to the case file) or the suite inline. */
    suite: z.union([z.string().min(1), suiteSchema], {
      error: (iss) =>
        iss.input === undefined
          ? 'required: a path to a suite file, or the suite inline'
          : 'expected a path to a suite file, or the suite inline',
    }),
    targets: z.array(targetSchema).min(1, 'a case needs at least one target'),
    context: z.array(contextRepoSchema).default([]),
  })
  .strict();

export type BranchTarget = z.infer<typeof branchTargetSchema>;
export type PatchTarget = z.infer<typeof patchTargetSchema>;
export type Target = z.infer<typeof targetSchema>;
export type ContextRepo = z.infer<typeof contextRepoSchema>;
export type CaseFile = z.infer<typeof caseFileSchema>;

export function isPatchTarget(t: Target): t is PatchTarget {
  return 'patch' in t;
}

/** The folder name a repository gets inside the workspace: the part after the slash. */
export function workspaceName(repo: string): string {
  return repo.includes('/') ? repo.slice(repo.indexOf('/') + 1) : repo;
}
