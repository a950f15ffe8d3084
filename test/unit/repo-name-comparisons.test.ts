/**
 * Repository names (and logins) compare through core/repo-name.ts only (sameRepo, repoKey,
 * loginKey, RepoSet, RepoMap): an ad-hoc `toLowerCase()` on a name is how `Acme/API` and
 * `acme/api` end up two repositories in one place and one in another. Every other
 * `toLowerCase()` must be on the lists below with what it lowers; a new one is either added
 * there or written with repo-name.ts. The App's list names each allowed line itself, so even a
 * second call in a listed App file fails until it is listed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findSuite } from '../../src/core/bench-suite-map.schema.ts';
import { matrixFlaky } from '../../src/core/matrix-flaky.ts';
import { configurationRunSchema } from '../../src/core/run.schema.ts';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src');

/** Files whose `toLowerCase()` calls lower something other than a repository name. */
const NOT_REPOSITORY_NAMES: Record<string, string> = {
  'core/repo-name.ts': 'the comparison key itself',
  'core/dependency-manifests.ts': 'Python package names (PEP 503) and manifest keys',
  'core/link-parser.ts': 'command words of `/tandem …` comments',
  'core/memory-size.ts': 'the unit letter of a memory size',
  'core/merge-rules.ts': 'GitHub logins of code owners',
  'core/page-privacy.ts': 'PR keys searched for inside rendered lines (a substring match, not an equality)',
  'engine/prepare/egress-resolve.ts': 'host names',
  'core/prepare-egress.ts': 'host names and addresses',
  'core/zod-issues.ts': 'flag names and did-you-mean distances',
  'engine/git/git-mirror.ts': 'a commit SHA',
  'mine/coupling.ts': 'common identifiers',
  'mine/file-kinds.ts': 'file extensions',
  'mine/link-graph.ts': 'the unit letter of a time window',
};

/** The App's lines (file: trimmed line) whose `toLowerCase()` lowers something other than a name. */
const APP_NOT_REPOSITORY_NAMES: Record<string, string> = {
  "app/executors/actions-report.ts: const json = [...files].filter(([name]) => name.toLowerCase().endsWith('.json'));":
    'file names of a downloaded artifact, for their extension',
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(p) : e.name.endsWith('.ts') ? [p] : [];
  });
}

describe('repository names compared through core/repo-name.ts', () => {
  /** Every line of src/ calling `toLowerCase()`, as `file: trimmed line`. */
  const lowering = () =>
    sourceFiles(SRC)
      .map((f) => path.relative(SRC, f).split(path.sep).join('/'))
      .flatMap((rel) =>
        readFileSync(path.join(SRC, rel), 'utf8')
          .split('\n')
          .flatMap((line) => (line.includes('.toLowerCase()') ? [`${rel}: ${line.trim()}`] : [])),
      );

  it('no toLowerCase() outside the App lowers anything but the listed non-names', () => {
    const offenders = lowering().filter(
      (l) => !l.startsWith('app/') && !(l.slice(0, l.indexOf(':')) in NOT_REPOSITORY_NAMES),
    );
    expect(offenders).toEqual([]);
  });

  it('no toLowerCase() in the App but the listed lines: its names go through repo-name.ts', () => {
    const offenders = lowering().filter((l) => l.startsWith('app/') && !(l in APP_NOT_REPOSITORY_NAMES));
    expect(offenders).toEqual([]);
  });

  it('a suite map entry serves rows that spell the repository in another case', () => {
    const map = { suites: [{ repo: 'Acme/API', suite: 'api.yml' }] };
    expect(findSuite(map, 'acme/api')?.suite).toBe('api.yml');
  });

  it('matrix flakiness matches groups, targets and wiring whatever their case', () => {
    const run = (id: string, status: 'passed' | 'failed') =>
      configurationRunSchema.parse({
        id,
        applied: ['ACME/web'],
        attempt: 0,
        setup: [],
        durationMs: 1,
        groups: [
          { name: 'web', status: 'reported', exitCode: 0, durationMs: 1, tests: [{ id: 't', status }] },
        ],
      });
    const flaky = matrixFlaky(
      [run('web', 'passed'), run('web+api', 'failed')],
      [{ name: 'web', repo: 'acme/Web' }],
      ['Acme/Web', 'acme/api'],
      [{ into: 'acme/WEB', repo: 'x/other' }],
    );
    expect(flaky).toEqual([{ id: 't', statuses: ['passed', 'failed'], configurations: ['web', 'web+api'] }]);
  });
});
