/**
 * What a published result was evaluated with, besides its members and heads: the org config, the
 * suite and its hidden files, the matrix mode, the PRs the set only needs at their heads
 * (evaluated too, but not members), and the base every evaluated PR was merged onto (its branch
 * and the tip it had). A reuse needs all of them unchanged, so a changed suite or config, a push
 * to a needed PR, a PR retargeted to another branch or a base branch that moved re-runs the
 * executor even on the same member heads.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { OrgConfig } from '../../core/org-config.schema.ts';
import type { Suite } from '../../core/suite.schema.ts';

export async function resultFingerprint(parts: {
  config: OrgConfig;
  suite: Suite;
  matrix: string | undefined;
  /** The folder the hidden files were fetched into. */
  hiddenDir: string;
  /** `key@headSha` of each PR the set needs without it being a member. */
  needed: readonly string[];
  /** `key ref@sha` of each evaluated PR: the branch it targets and the tip its head was merged onto. */
  bases: readonly string[];
}): Promise<string> {
  const h = createHash('sha256');
  h.update(JSON.stringify(parts.config)).update('\0').update(JSON.stringify(parts.suite)).update('\0');
  h.update(parts.matrix ?? 'default').update('\0');
  h.update([...parts.needed].sort().join(' ')).update('\0');
  h.update([...parts.bases].sort().join('\n')).update('\0');
  const files = (await readdir(parts.hiddenDir, { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
  for (const f of files)
    h.update(relative(parts.hiddenDir, f))
      .update('\0')
      .update(await readFile(f))
      .update('\0');
  return h.digest('hex');
}
