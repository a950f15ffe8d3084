/**
 * A user's own case mistake is bad input, not infrastructure (`tandem eval`, real git and Docker):
 * an unknown branch or SHA, an empty patch, a patch that does not apply exit 2 naming the field
 * (`targets[0].head`, `targets[0].patch`) in one line, said once, before anything runs. A clone
 * of a reachable URL that fails stays an infrastructure error (exit 3), its cause first.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { dockerSuite } from '../helpers/docker-suite.ts';
import {
  appChecksCase,
  runCli,
  type ShellCase,
  unknownRefCase,
  writeCase,
} from '../helpers/example-cases.ts';

const docker = dockerSuite('cli-case-mistakes');
let app: ShellCase;

beforeAll(async () => {
  app = await appChecksCase({
    name: 'mistakes',
    base: { 'app.txt': 'alpha\n' },
    head: { 'app.txt': 'beta\n' },
    checks: [{ name: 'has app', cmd: 'test -f app/app.txt' }],
  });
  docker.track(app.root);
}, 120_000);

/** Lines of ours on stderr (`tandem: …`), past the plan's progress line. */
const ours = (stderr: string) =>
  stderr.split('\n').filter((l) => l.startsWith('tandem: ') && !/configuration\(s\), matrix/.test(l));

/** Exit 2, one line naming the case file and the field, said once; no matrix, no verdict. */
function expectInputError(r: { code: number | null; stderr: string }, caseFile: string, field: string) {
  expect(r.code, r.stderr).toBe(2);
  const lines = ours(r.stderr);
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]!.startsWith(`tandem: ${caseFile}: field "${field}": `)).toBe(true);
  expect(r.stderr.split(`field "${field}"`)).toHaveLength(2);
  expect(r.stderr).not.toContain('infrastructure error');
  expect(r.stderr).not.toContain('Verdict:');
  return lines[0]!;
}

async function patchCase(name: string, patch: string) {
  const file = `patches/${name}.diff`;
  await mkdir(path.join(app.root, 'patches'), { recursive: true });
  await writeFile(path.join(app.root, file), patch);
  // Written as is: the helper's writeCase loads the case, and an empty patch fails that.
  const caseFile = path.join(app.root, `${name}.yml`);
  await writeFile(
    caseFile,
    YAML.stringify({
      name,
      suite: 'evaluator/suite.yml',
      targets: [{ repo: 'acme/app', url: app.repos.app!.url, base: 'main', patch: file }],
    }),
  );
  return { caseFile };
}

describe('a ref the case names that does not exist', () => {
  it('an unknown branch exits 2 naming targets[0].head', async () => {
    const c = await unknownRefCase();
    docker.track(c.root);
    const r = await runCli(['eval', c.caseFile, ...docker.cliFlags()]);
    const line = expectInputError(r, c.caseFile, 'targets[0].head');
    expect(line).toContain("unknown ref 'no-such-branch'");
  });

  it('an unknown SHA exits 2 naming targets[0].head', async () => {
    const sha = 'deadbeef'.repeat(5);
    const c = await writeCase(app.root, 'unknown-sha.yml', {
      name: 'unknown-sha',
      suite: 'evaluator/suite.yml',
      targets: [{ repo: 'acme/app', url: app.repos.app!.url, base: 'main', head: sha }],
    });
    const r = await runCli(['eval', c.caseFile, ...docker.cliFlags()]);
    expect(expectInputError(r, c.caseFile, 'targets[0].head')).toContain(sha);
  });
});

describe('a patch the case gives', () => {
  it('an empty patch exits 2 naming targets[0].patch', async () => {
    const c = await patchCase('empty', '\n');
    const r = await runCli(['eval', c.caseFile, ...docker.cliFlags()]);
    expect(expectInputError(r, c.caseFile, 'targets[0].patch')).toContain('is empty');
  });

  it('a patch that does not apply exits 2 naming targets[0].patch and the file, in one short line', async () => {
    const c = await patchCase(
      'stale',
      [
        'diff --git a/app.txt b/app.txt',
        '--- a/app.txt',
        '+++ b/app.txt',
        '@@ -1 +1 @@',
        '-omega',
        '+beta',
        '',
      ].join('\n'),
    );
    const r = await runCli(['eval', c.caseFile, ...docker.cliFlags()]);
    const line = expectInputError(r, c.caseFile, 'targets[0].patch');
    expect(line).toContain('patches/stale.diff does not apply to acme/app at main (failed files: app.txt)');
    expect(line.length).toBeLessThan(c.caseFile.length + 200);
  });
});

describe('infrastructure stays infrastructure', () => {
  it('a clone of a reachable URL that fails exits 3, its cause first', async () => {
    // A folder that exists but holds no repository: reachable, and the clone fails.
    const notRepo = path.join(app.root, 'not-a-repo');
    await mkdir(notRepo, { recursive: true });
    const c = await writeCase(app.root, 'bad-clone.yml', {
      name: 'bad-clone',
      suite: 'evaluator/suite.yml',
      targets: [{ repo: 'acme/app', url: notRepo, base: 'main', head: 'feature' }],
    });
    const r = await runCli(['eval', c.caseFile, ...docker.cliFlags()]);
    expect(r.code, r.stderr).toBe(3);
    // The verdict line says the cause first, not the consequence (no all-base result).
    const verdict = r.stderr.split('\n').find((l) => l.startsWith('Verdict: '));
    expect(verdict, r.stderr).toMatch(
      /^Verdict: INFRASTRUCTURE ERROR \(not a verdict on the code\) - could not clone \S*not-a-repo/,
    );
    expect(r.stderr).not.toContain('field "targets');
  });
});
