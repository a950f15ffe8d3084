/**
 * What a valid organization configuration may still get wrong: settings the App accepts but that
 * cannot do what they say. Each warning names its field. Pure: `tandem config check` prints
 * them (exit 0, or 2 under `--strict`).
 */
import type { OrgConfig } from './org-config.schema.ts';
import { repoKey } from './repo-name.ts';

export interface ConfigFinding {
  /** The field at fault, as users write it: `suites[1].repos[0]`. */
  field: string;
  message: string;
}

/** Above this many linked PRs, `matrix: full` runs more than 64 configurations per evaluation. */
const FULL_MATRIX_MEMBERS = 6;

export function orgConfigWarnings(config: OrgConfig, raw: unknown): ConfigFinding[] {
  return [
    ...coverageWarnings(config),
    ...limitWarnings(config, raw),
    ...revealWarnings(config),
    ...executorWarnings(config, raw),
  ];
}

/** Hidden tests stay useful only while PR authors cannot read what they check. */
function revealWarnings(config: OrgConfig): ConfigFinding[] {
  if (config.reveal === 'counts') return [];
  const what =
    config.reveal === 'names'
      ? 'the names of failing hidden tests'
      : 'the names of failing hidden tests and the first lines of their failure messages';
  return [
    {
      field: 'reveal',
      message: `${config.reveal}: ${what} appear in the comments and check runs of every covered repository's PRs, where anyone who reads them (everyone, for a public repository) learns what the hidden tests check; "counts" shows numbers only`,
    },
  ];
}

/** A repository in two suites: the App evaluates its PRs with the first suite only. */
function coverageWarnings(config: OrgConfig): ConfigFinding[] {
  const out: ConfigFinding[] = [];
  const firstSeen = new Map<string, { suite: number; name: string }>();
  config.suites.forEach((suite, i) => {
    const inThisSuite = new Set<string>();
    suite.repos.forEach((repo, j) => {
      const key = repoKey(repo);
      const field = `suites[${i}].repos[${j}]`;
      if (inThisSuite.has(key)) {
        out.push({ field, message: `${repo} is listed twice in suite "${suite.name}"` });
        return;
      }
      inThisSuite.add(key);
      const first = firstSeen.get(key);
      if (first)
        out.push({
          field,
          message: `${repo} is also covered by suite "${first.name}" (suites[${first.suite}]); the App uses the first suite that covers a repository, so suite "${suite.name}" never runs for it`,
        });
      else firstSeen.set(key, { suite: i, name: suite.name });
    });
  });
  return out;
}

function limitWarnings(config: OrgConfig, raw: unknown): ConfigFinding[] {
  const out: ConfigFinding[] = [];
  const { members, repos } = config.limits;
  if (members < 2)
    out.push({
      field: 'limits.members',
      message: `${members}: a linked change has at least 2 pull requests, so no PR is ever linked to another`,
    });
  if (repos < 2)
    out.push({
      field: 'limits.repos',
      message: `${repos}: a linked change spans at least 2 repositories, so no PR is ever linked to another`,
    });
  if (repos > members)
    out.push({
      field: 'limits.repos',
      message: `${repos} is more than limits.members (${members}): every repository of a linked change has a PR in it, so the set stops at ${members} repositories`,
    });
  const widest = Math.max(...config.suites.map((s) => new Set(s.repos.map(repoKey)).size));
  // The default (8) is above most suites' size; only a number someone chose is worth a word.
  if (repos > widest && repos >= 2 && givenLimit(raw, 'repos'))
    out.push({
      field: 'limits.repos',
      message: `${repos}: no suite covers more than ${widest} repositories, and a linked change stays within one suite's repositories`,
    });
  if (config.matrix === 'full' && members > FULL_MATRIX_MEMBERS)
    out.push({
      field: 'matrix',
      message: `full with limits.members ${members}: up to 2^${members} = ${2 ** members} configurations per evaluation; "auto" runs the full matrix up to 4 PRs and leave-one-out beyond`,
    });
  return out;
}

function givenLimit(raw: unknown, key: string): boolean {
  const limits = (raw as { limits?: unknown } | null)?.limits;
  return typeof limits === 'object' && limits !== null && key in limits;
}

/** `actions:` only configures the `actions` executor. */
function executorWarnings(config: OrgConfig, raw: unknown): ConfigFinding[] {
  const given = typeof raw === 'object' && raw !== null && 'actions' in raw;
  if (config.executor !== 'actions' && given)
    return [
      {
        field: 'actions',
        message: `is ignored with executor "${config.executor}" (${config.executor === 'local' ? 'the App host runs evaluations' : '`tandem worker` processes run the configurations'}); set executor: actions to use the workflow`,
      },
    ];
  return [];
}
