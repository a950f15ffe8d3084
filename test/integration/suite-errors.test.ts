/**
 * One bad suite file, three ways in: the CLI reads it from disk (case loader), the App fetches it
 * from the evaluator repository over HTTP (GitHub stand-in), the Action reads it from its
 * checkout (the CLI's loader). Each must give the same detailed message: which fields, what is
 * wrong, several problems at once — only the file's name in front differs.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ProbotOctokit } from 'probot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InputError } from '../../src/core/errors.ts';
import { loadSuiteFile } from '../../src/engine/case-loader.ts';
import { fetchSuite } from '../../src/github/suite-fetch.ts';
import { type StandIn, startGitHubStandIn } from '../support/github-standin/index.ts';

const BAD_SUITE = [
  'name: checkout',
  'image: tandem/sandbox:node20',
  'tests:',
  '  - name: unit',
  '    run: 42',
  '    results: { format: nunit, path: r.xml }',
  '    timeout: -1',
  '',
].join('\n');

let standIn: StandIn;
const quiet = { debug() {}, info() {}, warn() {}, error() {} };

beforeAll(async () => {
  standIn = await startGitHubStandIn({ tokens: { pat: 'octocat' } });
  standIn.addRepo({ owner: 'acme', name: 'evaluator', private: true });
  standIn.setFile('acme', 'evaluator', 'suites/checkout.yml', BAD_SUITE);
});
afterAll(() => standIn?.close());

async function errorOf(p: Promise<unknown>): Promise<InputError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(InputError);
  return e as InputError;
}

describe('the same bad suite file, from every face', () => {
  it('gives the same detailed message and field', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tandem-suite-'));
    const file = path.join(dir, 'checkout.yml');
    writeFileSync(file, BAD_SUITE);
    const fromDisk = await errorOf(loadSuiteFile(file));

    const gh = new ProbotOctokit({ auth: { token: 'pat' }, baseUrl: standIn.url, log: quiet });
    const root = mkdtempSync(path.join(os.tmpdir(), 'tandem-fetched-'));
    const fromGitHub = await errorOf(
      fetchSuite(gh, { owner: 'acme', repo: 'evaluator' }, 'suites/checkout.yml', root),
    );

    expect(fromDisk.message.startsWith(`${file}: `)).toBe(true);
    expect(fromGitHub.message.startsWith('suites/checkout.yml: ')).toBe(true);
    const detail = (e: InputError, where: string) => e.message.slice(where.length + 2);
    expect(detail(fromGitHub, 'suites/checkout.yml')).toBe(detail(fromDisk, file));
    expect(fromGitHub.field).toBe(fromDisk.field);
    // Detailed: every problem named by its field, not only the first one.
    const text = detail(fromDisk, file);
    for (const field of ['tests[0].run', 'tests[0].results.format', 'tests[0].timeout']) {
      expect(text).toContain(`field "${field}"`);
    }
  });
});
