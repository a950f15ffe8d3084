/**
 * The report's view model: what every face (the sticky comment, the check run, the terminal
 * table, the HTML page) lays out, and the small formatters they share. Built by
 * `report-view.ts` (`buildReportView`) from its parts: the matrix (`report-view-matrix.ts`), the
 * tests and what `reveal` hides of them (`report-view-tests.ts`), the verdict's headline
 * (`report-view-verdict.ts`) and the targets (`report-view-targets.ts`).
 */
import type { Report } from '../core/report.schema.ts';

/**
 * `counts`: only numbers (public PRs, hidden tests). `names`: failing and flaky test names too.
 * `messages`: names and the first lines of each failure message (already through the leak filter:
 * the engine filters every report it returns).
 */
export type Reveal = 'counts' | 'names' | 'messages';

export interface MatrixRowView {
  id: string;
  role: 'base' | 'partial' | 'full';
  /** One per target column: true when that target's PR is applied (head). */
  applied: boolean[];
  outcome: 'pass' | 'fail' | 'error' | 'not-run';
  /** full is expected to pass, every other configuration to fail (a jointly necessary change). */
  asExpected: boolean;
  /** The first letters of the columns applied, `·` for base (`AB·D`): one cell for any N. */
  letters: string;
  passed: number;
  total: number;
  durationMs: number;
  cached: boolean;
  runs: number;
  errorKind?: string;
  /** Why groups ran no test here ("build failed"), Tandem's words only. */
  ranNoTest?: string;
}

export interface FailingTestView {
  /** The test group (usually a repository's short name). */
  group: string;
  /** Readable: `Class › name`, or the name alone when the reporter gives no class. */
  name: string;
  kind: 'F2P' | 'P2P';
  status: string;
  /** With `reveal: messages`: the first lines of why it failed. */
  message: string[];
}

export interface ReportView {
  name: string;
  outcome: Report['outcome'];
  /** The evaluator's suite is wrong: said instead of any failing test. */
  invalidSuite?: {
    message: string;
    fields: string[];
    suitePath?: string;
    /** The first few listed ids never reported; empty under `counts`. */
    ids: string[];
    count: number;
    more: number;
  };
  summary: string;
  /** The full configuration has a result: fix rate and per-repository metrics mean something. */
  judged: boolean;
  /** report.summary says more than "complete". */
  hasSummary: boolean;
  /** `n/a`: one target, so there is no other PR to need. */
  jointlyNecessary: 'yes' | 'no' | 'undetermined' | 'n/a (one target)';
  leaveOneOut: boolean;
  unnecessary: string[];
  fixRate: number;
  fixRatePercent: string;
  f2p: { passed: number; total: number; failing: number };
  p2p: { passed: number; total: number; failing: number };
  listsSource: string;
  ignored: number;
  /** Test ids only runs of PR code reported: never judged, never named (issue 18 item 6). */
  seenOnlyWithPr: number;
  columns: Array<{ repo: string; short: string }>;
  matrix: MatrixRowView[];
  ran: number;
  asExpected: number;
  /** Configurations that ran into an infrastructure error: no result, not judged. */
  errored: number;
  /** Rows dropped by trimming. */
  matrixMore: number;
  repositories: Report['repositories'];
  reveal: Reveal;
  /** Failing expected tests in full, P2P regressions first; empty under `counts` or after trimming. */
  failing: FailingTestView[];
  failingCount: number;
  failingMore: number;
  /** Test groups of the full configuration that did not report, described from their status only. */
  brokenGroups: Array<{ name: string; status: string; detail: string }>;
  flaky: Array<{ id: string; statuses: string[] }>;
  flakyCount: number;
  fullRuns: number;
  infraErrors: Array<{
    kind: string;
    target?: string;
    configuration?: string;
    message: string;
    files: string[];
  }>;
  infraMore: number;
  targets: Array<{
    repo: string;
    kind: string;
    baseRef?: string;
    baseSha: string;
    headRef?: string;
    headSha?: string;
    /** Full commits, for links: the base, and the PR's own head (never Tandem's merge of it). */
    baseCommit: string;
    headCommit?: string;
    patch?: string;
    error?: string;
  }>;
  context: Array<{ repo: string; ref: string; sha: string }>;
  partial?: { shard: string; ran: number; planned: number };
  tool: string;
  suite: string;
  sandbox: string;
  durationMs: number;
  matrixMode: string;
  /** Set by trimming: what was left out. */
  trimmed: string[];
  /** Per-repository rows for the summary table (failing counts precomputed). */
  repoRows: Array<{ repo: string; aggregate?: boolean; f2p: string; p2p: string; ok: boolean; note: string }>;
  /** Column letters (A, B, …) with their repositories, for the compact matrix. */
  legend: Array<{ letter: string; repo: string }>;
  /** More than three targets: one `Applied` cell per row instead of one column per target. */
  compact: boolean;
  /** Configurations folded into the summary line (as expected, not listed one by one). */
  folded: number;
  /** Whether the joint-necessity line says anything: only a resolved change can be jointly necessary. */
  showJointlyNecessary: boolean;
  /** The failing-tests section has something to show (names are revealed). */
  failingListed: boolean;
  /** Targets whose PR does not merge onto its base (a merge conflict): updating it re-evaluates. */
  conflicts: string[];
  /** Where commits are linked (`https://github.com`): `<webUrl>/<repo>/commit/<sha>`. */
  webUrl?: string;
  /** At most this many matrix rows are listed (trimming lowers it); `full` always is. */
  matrixCap: number;
  /** Set by the face (Markdown, already escaped): the linked PRs, heads and merge order. */
  setLine?: string;
  /** Line 2 of a resolved change: the targets it does not need, as the face names them (`acme/web#7`). */
  notNeeded: string[];
  /** Test names are hidden by `reveal: counts` while some test fails or flakes: say so, and who sees them. */
  namesHidden: boolean;
  /** Set by the face: who can see the hidden names (the App: readers of the evaluator repository). */
  hiddenNamesNote?: string;
  /** Targets the suite has no test for (no F2P and no P2P test counted in their repository). */
  untested: string[];
  /** The joint-necessity legend under the matrix: only when there are partial configurations. */
  showJointLegend: boolean;
  footer: FooterView;
}

/** The last line: which heads the report is for, where to read more, how to re-run. */
export interface FooterView {
  /** `sha` short; `commit` full (for the link) and `fullRepo` (`owner/name`). */
  heads: Array<{ repo: string; sha: string; commit: string; fullRepo: string }>;
  checkRunUrl?: string;
  jsonReportUrl?: string;
  /** The App's `/tandem run`; the CLI and the Action have no command to offer. */
  rerunCommand?: string;
}

export const shortSha = (sha: string | undefined): string => (sha ? sha.slice(0, 7) : '');

/** A ref that is a commit (the App names PR heads and base tips by SHA): shown as a short SHA, not a ref. */
export const isFullSha = (ref: string | undefined): boolean => /^[0-9a-f]{40}$/i.test(ref ?? '');

export interface ViewOptions {
  reveal: Reveal;
  /** Targets in this order (`merge_order`, producers first) for columns, legend and tables. */
  order?: readonly string[];
  /** The PR head commits, when the face knows them (the App): quoted instead of merge commits. */
  prHeads?: ReadonlyArray<{ repo: string; sha: string }>;
  /** How the face names a target's change (`acme/web#7`, the App's PR); default the repository. */
  changeLabels?: ReadonlyArray<{ repo: string; label: string }>;
  webUrl?: string;
  /** The suite's path in the evaluator repository (the App), named when the suite is invalid. */
  suitePath?: string;
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)}s`;
  const m = Math.floor(s / 60);
  const rest = Math.round(s - m * 60);
  return m < 60 ? `${m}m ${String(rest).padStart(2, '0')}s` : `${Math.floor(m / 60)}h ${m % 60}m`;
}
