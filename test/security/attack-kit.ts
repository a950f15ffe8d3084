/**
 * Small tools the attack tests share: commits that plain text files cannot express (symbolic
 * links), a host canary (a secret folder outside every Tandem folder that no sandbox may see),
 * and a check that a report never carries a given secret anywhere.
 */
import { execFile } from 'node:child_process';
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Report } from '../../src/core/report.schema.ts';
import type { FixtureRepo } from '../helpers/git-fixtures.ts';
import { makeTempDir } from '../helpers/git-fixtures.ts';

const run = promisify(execFile);

/** Commits `links` (path → link target) on top of `branch` (which must exist) and pushes it. */
export async function commitSymlinks(
  repo: FixtureRepo,
  branch: string,
  links: Record<string, string>,
): Promise<void> {
  const git = (args: string[]) => run('git', args, { cwd: repo.work, env: { ...process.env, ...IDENTITY } });
  await git(['checkout', '--quiet', branch]);
  for (const [rel, target] of Object.entries(links)) {
    const at = path.join(repo.work, rel);
    await rm(at, { recursive: true, force: true });
    await mkdir(path.dirname(at), { recursive: true });
    await symlink(target, at);
  }
  await git(['add', '--all']);
  await git(['commit', '--quiet', '-m', 'attack: links']);
  await git(['push', '--quiet', '--force', 'origin', `HEAD:refs/heads/${branch}`]);
}

const IDENTITY = {
  GIT_AUTHOR_NAME: 'Attacker',
  GIT_AUTHOR_EMAIL: 'attacker@example.com',
  GIT_COMMITTER_NAME: 'Attacker',
  GIT_COMMITTER_EMAIL: 'attacker@example.com',
};

export interface Canary {
  /** A host folder outside every Tandem folder. */
  dir: string;
  /** A file in it whose content is `secret`. */
  file: string;
  secret: string;
}

/** A host folder with one secret file: what an escaping sandbox would see. */
export async function hostCanary(label: string): Promise<Canary> {
  const dir = await makeTempDir(`tandem-canary-${label}-`);
  const secret = `HOST-SECRET-${label}-${Math.random().toString(36).slice(2)}`;
  const file = path.join(dir, 'canary.txt');
  await writeFile(file, `${secret}\n`);
  return { dir, file, secret };
}

/** Every string in the report, joined: for "this text appears nowhere" assertions. */
export function reportText(report: Report): string {
  return JSON.stringify(report);
}

/** `[test name, status]` pairs of one configuration (ids stripped to the test's name). */
export function statuses(report: Report, configuration: string): Array<[string, string]> {
  const c = report.configurations.find((x) => x.id === configuration);
  if (!c) throw new Error(`no configuration ${configuration} in the report`);
  return c.tests.map((t) => [t.id.split('::').pop() ?? t.id, t.status]);
}

/** `[group, test name, status]` of one configuration, sorted: which group's test did what. */
export function byGroup(report: Report, configuration: string): Array<[string, string, string]> {
  const c = report.configurations.find((x) => x.id === configuration);
  if (!c) throw new Error(`no configuration ${configuration} in the report`);
  return c.tests
    .map((t): [string, string, string] => {
      const parts = t.id.split('::');
      return [parts[0] ?? t.id, parts.at(-1) ?? t.id, t.status];
    })
    .sort((a, b) => a.join('\0').localeCompare(b.join('\0')));
}
