/**
 * The SWE-bench patch fallback chain on a clean checkout: strict first, then ever more forgiving,
 * restoring a clean tree between tries so a half-applied attempt never leaks into the next.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { InfraError } from '../../core/errors.ts';
import { type ExecResult, exec, git, isMissingBinary, summarizeStderr } from './git.ts';

export type PatchMethod = 'git apply' | 'git apply --3way' | 'git apply --reject' | 'patch --fuzz=5';

export interface PatchApplyResult {
  method: PatchMethod;
}

interface Attempt {
  method: PatchMethod;
  run: (dir: string, file: string) => Promise<ExecResult>;
}

const ATTEMPTS: Attempt[] = [
  { method: 'git apply', run: (cwd, f) => git(['apply', '--verbose', f], { cwd, allowFailure: true }) },
  {
    method: 'git apply --3way',
    run: (cwd, f) => git(['apply', '--verbose', '--3way', f], { cwd, allowFailure: true }),
  },
  {
    method: 'git apply --reject',
    run: (cwd, f) => git(['apply', '--verbose', '--reject', f], { cwd, allowFailure: true }),
  },
  {
    method: 'patch --fuzz=5',
    // --no-backup-if-mismatch: fuzzed hunks must not leave `.orig` files in the committed tree.
    run: (cwd, f) =>
      exec('patch', ['--batch', '--forward', '--fuzz=5', '-p1', '--no-backup-if-mismatch', '-i', f], {
        cwd,
        allowFailure: true,
      }),
  },
];

/**
 * Applies `patchText` to the clean git checkout `dir`. On success the working tree holds the
 * patched content (uncommitted). All methods failing → InfraError('patch-failed') naming the
 * target and the files whose hunks did not apply.
 */
export async function applyPatch(
  dir: string,
  patchText: string,
  opts: { target?: string } = {},
): Promise<PatchApplyResult> {
  const target = opts.target ?? path.basename(dir);
  // Outside the checkout, so the patch file never becomes part of the tree.
  const tmp = await mkdtemp(path.join(tmpdir(), 'tandem-patch-'));
  const file = path.join(tmp, 'change.patch');
  // git apply calls a patch whose last line lacks its newline "corrupt".
  await writeFile(file, patchText.endsWith('\n') ? patchText : `${patchText}\n`);
  const failures: Array<{ method: PatchMethod; output: string }> = [];
  try {
    for (const attempt of ATTEMPTS) {
      await cleanTree(dir);
      let res: ExecResult;
      try {
        res = await attempt.run(dir, file);
      } catch (e) {
        if (!isMissingBinary(e)) throw e;
        failures.push({
          method: attempt.method,
          output: 'GNU patch is not installed (`patch` not found on PATH)',
        });
        continue;
      }
      // `--reject` and `patch` exit 0 with some hunks parked in .rej files: that is a failure.
      const rejects = await rejectFiles(dir);
      if (res.code === 0 && rejects.length === 0) return { method: attempt.method };
      failures.push({ method: attempt.method, output: `${res.stdout}\n${res.stderr}` });
    }
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  await cleanTree(dir);
  const files = failedFiles(failures.map((f) => f.output).join('\n'));
  const detail = describe(failures);
  throw new InfraError(
    'patch-failed',
    `patch for ${target} does not apply (tried ${ATTEMPTS.map((a) => a.method).join(', ')})` +
      `${files.length ? ` — failed files: ${files.join(', ')}` : ''}${detail ? `. ${detail}` : ''}`,
    { target, files },
  );
}

/** `git reset --hard` + `git clean -fdx`: back to exactly the checked-out commit. */
export async function cleanTree(dir: string): Promise<void> {
  await git(['reset', '--hard', '--quiet'], { cwd: dir });
  await git(['clean', '-fdxq'], { cwd: dir });
}

/** Untracked `.rej` files anywhere in the tree, ignored ones included. */
async function rejectFiles(dir: string): Promise<string[]> {
  const res = await git(['ls-files', '--others', '-z'], { cwd: dir });
  return res.stdout.split('\0').filter((f) => f.endsWith('.rej'));
}

/** The files named in git apply / GNU patch failure output, in first-seen order. */
export function failedFiles(output: string): string[] {
  const seen = new Set<string>();
  const patterns = [
    /^error: patch failed: (.+):\d+$/gm,
    /^error: (.+?): (?:patch does not apply|No such file or directory|already exists in (?:working directory|index)|does not exist in index|does not match index|wrong type)$/gm,
    /^Applying patch (.+?) with \d+ rejects?\.\.\.$/gm,
    /saving rejects to file (.+?)\.rej$/gm,
  ];
  for (const re of patterns) for (const m of output.matchAll(re)) if (m[1]) seen.add(m[1].trim());
  // GNU patch: "can't find file to patch" comes after the header naming the file.
  for (const m of output.matchAll(/^\+\+\+ b\/(\S+).*\n(?:.*\n)*?can't find file to patch/gm)) {
    if (m[1]) seen.add(m[1]);
  }
  return [...seen];
}

/** One line per method: what git or patch said last. Rejected hunks are listed for `--reject`. */
function describe(failures: Array<{ method: PatchMethod; output: string }>): string {
  const parts: string[] = [];
  for (const f of failures) {
    if (f.method === 'git apply --reject') {
      const hunks: string[] = [];
      let current = '';
      for (const line of f.output.split('\n')) {
        const applying = /^Applying patch (.+?) with \d+ rejects?\.\.\.$/.exec(line);
        if (applying?.[1]) current = applying[1];
        const rejected = /^Rejected hunk #(\d+)\.$/.exec(line);
        if (rejected?.[1]) hunks.push(`${current} hunk #${rejected[1]}`);
      }
      if (hunks.length) {
        parts.push(`${f.method}: rejected ${hunks.join(', ')}`);
        continue;
      }
    }
    if (f.method === 'patch --fuzz=5') {
      const lines = f.output
        .split('\n')
        .filter((l) => /FAILED|can't find|not installed|Reversed|malformed|Only garbage/.test(l));
      if (lines.length) {
        parts.push(`${f.method}: ${summarizeStderr(lines.join('\n'), 6)}`);
        continue;
      }
    }
    const summary = summarizeStderr(f.output.replace(/^(Checking|Applied|Applying) patch .*$/gm, ''), 2, 200);
    if (summary) parts.push(`${f.method}: ${summary}`);
  }
  return parts.join('; ');
}
