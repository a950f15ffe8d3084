/**
 * A branch's history as mining reads it: the first-parent commits since a date, each with its
 * message and, for a merge, the messages of the commits it brought in (their trailers count for
 * the merge) and the merged branch's name.
 */
import { git } from '../engine/git/git.ts';

export interface HistoryCommit {
  sha: string;
  parents: string[];
  /** Committer time, ms since the epoch: when the change landed on the branch. */
  at: number;
  message: string;
  /** Messages of the commits a merge brought in (empty for ordinary commits). */
  mergedMessages: string[];
  /** The merged branch's name, read from a merge message (`Merge pull request #4 from o/feat-x`). */
  branch?: string;
}

const RECORD = '\x1e';
const FIELD = '\x00';

/** Merge messages name the branch: GitHub's, GitLab's and git's own forms. */
export function mergedBranchName(message: string): string | undefined {
  const subject = message.split('\n', 1)[0] ?? '';
  const gh = /^Merge pull request #\d+ from [^/\s]+\/(\S+)/.exec(subject);
  if (gh) return gh[1];
  const plain = /^Merge (?:remote-tracking )?branch '([^']+)'/.exec(subject);
  if (plain) return plain[1]!.replace(/^origin\//, '');
  return undefined;
}

function parseLog(stdout: string): Array<Omit<HistoryCommit, 'mergedMessages'>> {
  return stdout
    .split(RECORD)
    .map((r) => r.replace(/^\n/, ''))
    .filter((r) => r.length > 0)
    .map((r) => {
      const [sha = '', parents = '', ct = '0', ...rest] = r.split(FIELD);
      const message = rest.join(FIELD).trimEnd();
      const branch = mergedBranchName(message);
      return {
        sha,
        parents: parents.split(' ').filter(Boolean),
        at: Number(ct) * 1000,
        message,
        ...(branch ? { branch } : {}),
      };
    });
}

/**
 * First-parent commits of `tip` (oldest first) committed at or after `since` (and before `until`),
 * read from a repository (a bare mirror is fine).
 */
export async function readHistory(
  repoDir: string,
  tip: string,
  range: { since: Date; until?: Date },
): Promise<HistoryCommit[]> {
  const args = [
    'log',
    '--first-parent',
    '--reverse',
    '--format=%H%x00%P%x00%ct%x00%B%x1e',
    `--since=${range.since.toISOString()}`,
    ...(range.until ? [`--until=${range.until.toISOString()}`] : []),
    tip,
    '--',
  ];
  const { stdout } = await git(args, { cwd: repoDir });
  const commits = parseLog(stdout);
  const out: HistoryCommit[] = [];
  for (const c of commits) {
    let mergedMessages: string[] = [];
    if (c.parents.length > 1) {
      // What the merge brought in: its other parents' commits not already on the first parent.
      const { stdout: side } = await git(
        ['log', '--format=%B%x1e', '-n', '200', ...c.parents.slice(1), `^${c.parents[0]}`, '--'],
        { cwd: repoDir },
      );
      mergedMessages = side
        .split(RECORD)
        .map((m) => m.trim())
        .filter(Boolean);
    }
    out.push({ ...c, mergedMessages });
  }
  return out;
}
