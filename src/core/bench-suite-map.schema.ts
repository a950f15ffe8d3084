/**
 * Which suite builds and tests which rows, as SWE-bench's per-repository specs do: a file of
 * `suites[] {repo, version?, suite, url?}`. A row takes the entry of its repository and version,
 * else the entry of its repository without a version. `url` says where to fetch the repository
 * when the row does not (published rows name only `owner/name`).
 */
import { z } from 'zod';
import { repoNameSchema } from './case.schema.ts';
import { sameRepo } from './repo-name.ts';
import { suiteSchema } from './suite.schema.ts';

export const suiteMapEntrySchema = z
  .object({
    repo: repoNameSchema,
    version: z
      .union([z.string().min(1), z.number()])
      .transform(String)
      .optional(),
    /** A suite file (relative to the map file) or the suite inline. */
    suite: z.union([z.string().min(1), suiteSchema]),
    /** Git URL or local path (relative to the map file). */
    url: z.string().min(1).optional(),
  })
  .strict();

export const suiteMapSchema = z
  .object({ suites: z.array(suiteMapEntrySchema).min(1, 'a suite map needs at least one entry') })
  .strict();

export type SuiteMap = z.infer<typeof suiteMapSchema>;
export type SuiteMapEntry = z.infer<typeof suiteMapEntrySchema>;

export function findSuite(map: SuiteMap, repo: string, version?: string): SuiteMapEntry | undefined {
  const mine = map.suites.filter((e) => sameRepo(e.repo, repo));
  return (
    (version !== undefined ? mine.find((e) => e.version === version) : undefined) ??
    mine.find((e) => e.version === undefined)
  );
}
