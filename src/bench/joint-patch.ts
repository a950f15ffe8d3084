/**
 * A prediction's `model_patch` is one diff over the joint workspace (`a/api/src/x.ts`): split
 * into one diff per repository by each file's leading folder, with that folder removed from
 * every path so each part applies inside its repository.
 */
import { workspaceName } from '../core/case.schema.ts';
import { InputError } from '../core/errors.ts';

/** One file's section of a unified diff and the paths it names. */
interface FileSection {
  lines: string[];
  path: string;
}

export function splitJointPatch(patch: string, repos: string[], where: string): Record<string, string> {
  const byFolder = new Map(repos.map((r) => [workspaceName(r), r]));
  const out: Record<string, string[]> = {};
  for (const section of fileSections(patch)) {
    const folder = section.path.split('/')[0] ?? '';
    const repo = byFolder.get(folder);
    if (!repo || !section.path.includes('/')) {
      throw new InputError(
        `${where}: field "model_patch": "${section.path}" is outside every repository folder (have: ${[...byFolder.keys()].join(', ')})`,
        undefined,
        'model_patch',
      );
    }
    const lines = out[repo] ?? [];
    lines.push(...stripFolder(section.lines, folder));
    out[repo] = lines;
  }
  return Object.fromEntries(Object.entries(out).map(([repo, lines]) => [repo, `${lines.join('\n')}\n`]));
}

/** The file paths a unified diff touches (`a/`/`b/` prefixes removed). */
export function patchPaths(patch: string): string[] {
  return fileSections(patch).map((s) => s.path);
}

/** Sections start at `diff --git`, or at a `---` line followed by `+++` in plain unified diffs. */
function fileSections(patch: string): FileSection[] {
  const lines = patch.replace(/\n$/, '').split('\n');
  const gitStyle = lines.some((l) => l.startsWith('diff --git '));
  const sections: FileSection[] = [];
  let current: string[] | undefined;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    const starts = gitStyle
      ? l.startsWith('diff --git ')
      : l.startsWith('--- ') && lines[i + 1]?.startsWith('+++ ') && !inHunk(current);
    if (starts) {
      current = [];
      sections.push({ lines: current, path: '' });
    }
    current?.push(l);
  }
  for (const s of sections) s.path = sectionPath(s.lines);
  return sections.filter((s) => s.lines.length > 0);
}

/** A `---` line inside a hunk is a removed line that starts with `--`, not a new file. */
function inHunk(lines: string[] | undefined): boolean {
  if (!lines) return false;
  let remaining = 0;
  for (const l of lines) {
    const m = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/.exec(l);
    if (m) remaining = Math.max(Number(m[1] ?? 1), Number(m[2] ?? 1));
    else if (remaining > 0 && !l.startsWith('\\')) remaining--;
  }
  return remaining > 0;
}

function sectionPath(lines: string[]): string {
  const plus = lines.find((l) => l.startsWith('+++ '));
  const minus = lines.find((l) => l.startsWith('--- '));
  const pick = (l: string | undefined) => l?.slice(4).split('\t')[0]?.trim();
  const candidate = [pick(plus), pick(minus)].find((p) => p && p !== '/dev/null');
  if (candidate) return candidate.replace(/^[ab]\//, '');
  const git = /^diff --git a\/(\S+) b\/(\S+)/.exec(lines[0] ?? '');
  return git?.[2] ?? '';
}

/** Rewrites the header lines (before the first hunk) so paths are relative to the repository. */
function stripFolder(lines: string[], folder: string): string[] {
  const esc = folder.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const prefixed = new RegExp(`(^|\\s)([ab]/)${esc}/`, 'g');
  const plain = new RegExp(`^(rename from |rename to |copy from |copy to )${esc}/`);
  let header = true;
  return lines.map((l) => {
    if (l.startsWith('diff --git ')) header = true;
    else if (l.startsWith('@@')) header = false;
    if (!header) return l;
    if (l.startsWith('diff --git ') || l.startsWith('--- ') || l.startsWith('+++ '))
      return l.replace(prefixed, '$1$2');
    return l.replace(plain, '$1');
  });
}
