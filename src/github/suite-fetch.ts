/**
 * Fetches a suite file and its hidden files from the evaluator repository (default branch) into
 * a private folder, mirroring the repository's paths so `files` resolve relative to the suite.
 * Hidden paths and contents stay in that folder: errors name the suite field, never the file.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, posix } from 'node:path';
import { parse } from 'yaml';
import { InputError } from '../core/errors.ts';
import type { RepoParts } from '../core/repo-name.ts';
import { type Suite, suiteSchema } from '../core/suite.schema.ts';
import { validate } from '../core/zod-issues.ts';
import { type GitHub, httpStatus } from './octokit.ts';

export interface FetchedSuite {
  suite: Suite;
  /** The folder the suite's `files` are relative to. */
  suiteDir: string;
}

/** Repository-relative path of a hidden entry, or undefined if it escapes the repository. */
function inRepo(suitePath: string, rel: string): string | undefined {
  const p = posix.normalize(posix.join(posix.dirname(suitePath), rel));
  return p.startsWith('../') || p === '..' || posix.isAbsolute(p) ? undefined : p.replace(/\/$/, '');
}

async function download(gh: GitHub, repo: RepoParts, path: string, root: string, depth = 0): Promise<void> {
  if (depth > 20) throw new Error('hidden folder nesting too deep');
  const { data } = await gh.rest.repos.getContent({ ...repo, path });
  if (Array.isArray(data)) {
    for (const entry of data) {
      if (entry.type === 'dir') await download(gh, repo, entry.path, root, depth + 1);
      else if (entry.type === 'file') await download(gh, repo, entry.path, root, depth + 1);
    }
    return;
  }
  if (data.type !== 'file' || !('content' in data)) return;
  const dest = join(root, ...data.path.split('/'));
  await mkdir(dirname(dest), { recursive: true });
  await writeFile(dest, Buffer.from(data.content, 'base64'));
}

export async function fetchSuite(
  gh: GitHub,
  evaluator: RepoParts,
  suitePath: string,
  root: string,
): Promise<FetchedSuite> {
  let text: string;
  try {
    const { data } = await gh.rest.repos.getContent({ ...evaluator, path: suitePath });
    if (Array.isArray(data) || data.type !== 'file' || !('content' in data)) {
      throw new InputError(`suite ${suitePath} is not a file`, suitePath);
    }
    text = Buffer.from(data.content, 'base64').toString('utf8');
  } catch (e) {
    if (httpStatus(e) === 404)
      throw new InputError(`suite ${suitePath} not found in the evaluator repository`, suitePath);
    throw e;
  }
  let raw: unknown;
  try {
    raw = parse(text);
  } catch {
    throw new InputError(`suite ${suitePath} is not valid YAML`, suitePath);
  }
  // The same detailed message the CLI and the Action give for the same file.
  const suite = validate(suiteSchema, raw, suitePath);
  await mkdir(join(root, ...posix.dirname(suitePath).split('/')), { recursive: true });
  for (const [i, group] of suite.tests.entries()) {
    for (const [j, rel] of group.files.entries()) {
      const path = inRepo(suitePath, rel);
      const field = `tests[${i}].files[${j}]`;
      if (!path)
        throw new InputError(`suite ${suitePath}: ${field} points outside the repository`, suitePath, field);
      try {
        await download(gh, evaluator, path, root);
      } catch (e) {
        // The hidden path itself is not named: it must not reach a comment or a check run.
        if (httpStatus(e) === 404)
          throw new InputError(`suite ${suitePath}: ${field} not found`, suitePath, field);
        throw e;
      }
    }
  }
  return { suite, suiteDir: join(root, ...posix.dirname(suitePath).split('/')) };
}
