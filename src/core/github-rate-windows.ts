/**
 * GitHub's documented secondary limits (REST API "rate limits": content-creating requests and
 * searches), as windows of starts. Facts about GitHub, shared by the App's in-process pacing
 * (`app/octokit.ts`) and the pacing replicas share through the database (`app/replicas/`).
 */

/** At most `max` starts in any `ms` milliseconds (GitHub's secondary limits are stated so). */
export interface StartWindow {
  max: number;
  ms: number;
}

export const GITHUB_LIMITS = {
  content: [
    { max: 80, ms: 60_000 },
    { max: 500, ms: 3_600_000 },
  ],
  search: [{ max: 30, ms: 60_000 }],
} as const satisfies Record<string, readonly StartWindow[]>;
