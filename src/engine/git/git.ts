/**
 * A small promise wrapper over the `git` binary (and, for the patch fallback, any other binary).
 * Every call runs non-interactively with a C locale, so stderr is parseable and nothing ever waits
 * on a credential prompt.
 */
import { execFile } from 'node:child_process';
import { scrubCredentials } from '../../core/credentials.ts';

export interface ExecResult {
  stdout: string;
  stderr: string;
  /** Exit code; -1 when the process could not start or was killed. */
  code: number;
}

export interface ExecOptions {
  cwd?: string;
  /** Added to (and overriding) the inherited environment. */
  env?: Record<string, string | undefined>;
  maxBuffer?: number;
  /** Return a non-zero exit as a result instead of throwing. */
  allowFailure?: boolean;
  timeoutMs?: number;
}

/** A command that failed; carries the command and its stderr (credentials removed). */
export class GitError extends Error {
  override readonly name = 'GitError';
  constructor(
    /** The command line, e.g. `git fetch --prune origin` (credentials removed). */
    readonly command: string,
    readonly stderr: string,
    readonly code: number,
    readonly cwd?: string,
  ) {
    const tail = summarizeStderr(stderr);
    super(`${command} failed (exit ${code})${tail ? `: ${tail}` : ''}`);
  }
}

/**
 * Fixed identity and date for commits Tandem makes (merge states, patch states): the same inputs
 * give the same commit SHAs on every machine and every run.
 */
export const TANDEM_COMMIT_ENV: Readonly<Record<string, string>> = {
  GIT_AUTHOR_NAME: 'Tandem',
  GIT_AUTHOR_EMAIL: 'tandem@users.noreply.github.com',
  GIT_AUTHOR_DATE: '@946684800 +0000',
  GIT_COMMITTER_NAME: 'Tandem',
  GIT_COMMITTER_EMAIL: 'tandem@users.noreply.github.com',
  GIT_COMMITTER_DATE: '@946684800 +0000',
};

/**
 * Variables that, inherited (e.g. when Tandem runs from a git hook), would point every command at
 * the wrong repository.
 */
const LEAKY_GIT_VARS = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_COMMON_DIR',
  'GIT_PREFIX',
  'GIT_NAMESPACE',
];

/**
 * Settings that must not come from the user's global config: signing prompts, CRLF rewriting and
 * hooks would make states differ between machines or hang.
 */
const GIT_CONFIG_ARGS = [
  '-c',
  'commit.gpgsign=false',
  '-c',
  'tag.gpgsign=false',
  '-c',
  'core.autocrlf=false',
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'advice.detachedHead=false',
  '-c',
  'rerere.enabled=false',
];

function baseEnv(extra: ExecOptions['env']): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of LEAKY_GIT_VARS) delete env[k];
  env.GIT_TERMINAL_PROMPT = '0';
  env.GCM_INTERACTIVE = 'never';
  env.GIT_SSH_COMMAND ??= 'ssh -o BatchMode=yes';
  env.LC_ALL = 'C';
  env.LANGUAGE = 'C';
  for (const [k, v] of Object.entries(extra ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

/** The last few meaningful stderr lines, one line, capped: enough to say what went wrong. */
export function summarizeStderr(stderr: string, maxLines = 3, maxChars = 400): string {
  const lines = scrubCredentials(stderr)
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !/^(hint|remote: (Counting|Compressing|Enumerating|Total))/i.test(l));
  const text = lines.slice(-maxLines).join(' | ');
  return text.length > maxChars ? `${text.slice(0, maxChars)}…` : text;
}

/** Runs any binary; rejects with GitError on a non-zero exit unless `allowFailure`. */
export function exec(file: string, args: string[], opts: ExecOptions = {}): Promise<ExecResult> {
  const command = scrubCredentials([file, ...args].join(' '));
  return new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      {
        cwd: opts.cwd,
        env: baseEnv(opts.env),
        maxBuffer: opts.maxBuffer ?? 64 * 1024 * 1024,
        timeout: opts.timeoutMs ?? 0,
        encoding: 'utf8',
      },
      (error, stdout, stderr) => {
        if (!error) return resolve({ stdout, stderr, code: 0 });
        const err = error as NodeJS.ErrnoException & { code?: number | string };
        // A string code means the process never ran (ENOENT) or was cut off (maxBuffer).
        const code = typeof err.code === 'number' ? err.code : -1;
        const why = typeof err.code === 'string' ? `${err.code}: ${err.message}\n` : '';
        const result = { stdout: stdout ?? '', stderr: `${stderr ?? ''}${why}`, code };
        // A missing binary is never "a failure to allow": the caller must be able to say so.
        if (opts.allowFailure && err.code !== 'ENOENT') return resolve(result);
        reject(new GitError(command, result.stderr, code, opts.cwd));
      },
    );
  });
}

/** Runs `git <args>` with Tandem's fixed config. */
export function git(args: string[], opts: ExecOptions = {}): Promise<ExecResult> {
  return exec('git', [...GIT_CONFIG_ARGS, ...args], opts).catch((e: unknown) => {
    // Report the command as the caller wrote it, without our `-c` prefix.
    if (e instanceof GitError)
      throw new GitError(scrubCredentials(`git ${args.join(' ')}`), e.stderr, e.code, e.cwd);
    throw e;
  });
}

/** `git` returning trimmed stdout. */
export async function gitOut(args: string[], opts: ExecOptions = {}): Promise<string> {
  return (await git(args, opts)).stdout.trim();
}

/** True when `exec` failed because the binary is not installed. */
export function isMissingBinary(e: unknown): boolean {
  return e instanceof GitError && e.code === -1 && e.stderr.startsWith('ENOENT');
}

export function isFullSha(ref: string): boolean {
  return /^[0-9a-f]{40}$/i.test(ref);
}
