/**
 * What the GitHub App writes about a linked change, as Markdown: the set (members, who left,
 * refused links, merge order) around the report renderers, for the sticky comment and the
 * `Tandem` check output, and the App's messages that carry no report (an infrastructure error
 * or a suite error before any report, members over the caps, an invalid `tandem.yml`, the
 * hand-off to GitHub Actions). The App composes and publishes; every word is written here.
 * Hidden file paths never appear; test names only with `reveal: names`.
 */
import type { CheckRunOutput } from '../core/check-run-output.ts';
import { COMMENT_LIMIT } from '../core/github-limits.ts';
import { INFRA_ADVICE, INFRA_TITLE, INVALID_SUITE_TITLE, NOT_A_VERDICT } from '../core/infra-wording.ts';
import type { Refusal } from '../core/linked-set.ts';
import { formatPullRef } from '../core/pull-ref.ts';
import type { PullInfo } from '../core/pull-request.schema.ts';
import { RepoSet, repoFullName, sameRepo } from '../core/repo-name.ts';
import type { Report } from '../core/report.schema.ts';
import { renderCheckRunOutput } from './check-run-output.ts';
import { capText, mdFence, mdText } from './markdown-escape.ts';
import {
  mdCode,
  renderMarkdown,
  renderTemplate,
  type ViewExtras,
  viewWithExtras,
} from './markdown-report.ts';
import { type Reveal, shortSha } from './report-view.ts';

/** A PR that was linked and is no longer open. */
export interface LeftMember {
  key: string;
  state: 'closed' | 'merged';
  /** The branch a merged PR went into: its repository is taken at that branch's new tip. */
  baseRef?: string;
}

export interface LinkedChangeView {
  members: PullInfo[];
  left: LeftMember[];
  refused: Refusal[];
  /** The suite's `merge_order` (producers first). */
  mergeOrder?: string[];
  /** For the footer: the `Tandem` check run of the PR the comment is on, and the JSON report. */
  checkRunUrl?: string;
  jsonReportUrl?: string;
  /** `/tandem merge` merged the set: the comment says so and offers nothing to re-run. */
  merged?: boolean;
  /** The result was reused from an earlier evaluation of the same heads (ISO time it ran). */
  reusedFrom?: string;
  /** The suite's path in the evaluator repository: named when the suite is invalid. */
  suitePath?: string;
}

/**
 * Who sees what `reveal: counts` hides. The evaluator repository is not named: it is private, and
 * its name must not reach a public PR.
 */
export const HIDDEN_NAMES_NOTE =
  "people who can read the organization's evaluator repository see them by running its suite on these PRs (`tandem eval --pr …`)";

/** Asks for a run that does not reuse a published result. */
export const FRESH_RUN_COMMAND = '/tandem run --fresh';

/** The comment's re-run command, offered in its footer. */
export const RERUN_COMMAND = '/tandem run';

export function memberLabel(p: PullInfo): string {
  return formatPullRef(p.ref);
}

/** A member that left the set: merged (its repository taken at its new base) or closed. */
function leftText(l: LeftMember): string {
  return l.state === 'merged'
    ? `~~${l.key}~~ merged${l.baseRef ? ` into ${mdCode(l.baseRef)}` : ''}: its repository is taken at its new base`
    : `~~${l.key}~~ closed: left the set`;
}

/** A link that was not followed, with the reason. */
function refusedText(r: Refusal): string {
  return `${r.from} → ${r.to}: ${r.reason}`;
}

/** Refused links listed at most, so one PR's thousands of links never fill another's comment. */
const MAX_REFUSED_LISTED = 5;

function capped(refused: readonly Refusal[]): string[] {
  const shown = refused.slice(0, MAX_REFUSED_LISTED).map(refusedText);
  if (refused.length > shown.length) shown.push(`… and ${refused.length - shown.length} more`);
  return shown;
}

/**
 * Links not followed: this set's own refusals in the open, links from PRs it does not speak for
 * (unconfirmed, or through another PR's links) folded; both capped at a few lines.
 */
function refusedBlock(refused: readonly Refusal[], layout: 'line' | 'list'): string[] {
  const own = refused.filter((r) => !r.foreign);
  const foreign = refused.filter((r) => r.foreign);
  const out: string[] = [];
  if (own.length > 0 && layout === 'line') out.push(`**Links not followed:** ${capped(own).join(' · ')}`);
  if (own.length > 0 && layout === 'list')
    out.push(['**Links not followed**', '', ...capped(own).map((l) => `- ${l}`)].join('\n'));
  if (foreign.length > 0)
    out.push(
      `<details><summary>${foreign.length} link(s) of other pull requests not followed</summary>\n\n${capped(
        foreign,
      )
        .map((l) => `- ${l}`)
        .join('\n')}\n\n</details>`,
    );
  return out;
}

/** The set, who left it, refused links and the merge-order note. */
export function renderSetSection(view: LinkedChangeView): string {
  const lines = ['**Linked change**', ''];
  for (const m of view.members)
    lines.push(`- ${memberLabel(m)} at ${mdCode(shortSha(m.headSha))} onto ${mdCode(m.baseRef)}`);
  for (const l of view.left) lines.push(`- ${leftText(l)}`);
  if (view.refused.length > 0) lines.push('', ...refusedBlock(view.refused, 'list'));
  const order = orderOf(view);
  if (order.length > 0) {
    lines.push(
      '',
      `**Merge order**: ${order.map((r) => mdCode(r)).join(' → ')} (producers before consumers)`,
    );
  }
  return lines.join('\n');
}

/** The merge order restricted to the set's repositories, when it says something (two or more). */
function orderOf(view: LinkedChangeView): string[] {
  const repos = new RepoSet(view.members.map((m) => repoFullName(m.ref)));
  const order = (view.mergeOrder ?? []).filter((r) => repos.has(r));
  return order.length > 1 ? order : [];
}

/**
 * One line under the verdict: the linked PRs with their heads and the merge order; who left and
 * refused links follow on their own lines only when there are any.
 */
export function renderSetLine(view: LinkedChangeView): string {
  const label = (m: PullInfo) => `${memberLabel(m)} ${commitLink(m)}`;
  const order = orderOf(view);
  // Members in merge order joined by arrows (producers first); the rest follow unordered.
  const ordered = order.flatMap((r) => view.members.filter((m) => sameRepo(r, m.ref)));
  const rest = view.members.filter((m) => !ordered.includes(m));
  const chain = ordered.map(label).join(' → ');
  const members = [chain, ...rest.map(label)].filter(Boolean).join(' · ');
  const lines = [`**Linked${order.length > 0 ? ', in merge order' : ''}:** ${members}`];
  if (view.left.length > 0) lines.push(`**Left:** ${view.left.map(leftText).join(' · ')}`);
  lines.push(...refusedBlock(view.refused, 'line'));
  return lines.join('<br>\n');
}

/**
 * Merge conflicts name the PR and who must act: its author updates it (merge its base into it or
 * rebase), and the push re-evaluates the change. A re-run cannot help, so none is offered.
 */
function conflictNote(view: LinkedChangeView, report: Report): string {
  const repos = new RepoSet(
    [...report.infraErrors, ...report.targets.map((t) => t.error)]
      .filter((e) => e?.kind === 'merge-conflict')
      .map((e) => e?.target ?? ''),
  );
  const pulls = view.members.filter((m) => repos.has(repoFullName(m.ref)));
  if (pulls.length === 0) return '';
  const lines = pulls.map(
    (m) =>
      `**Merge conflict:** ${mdText(memberLabel(m))} does not merge onto the tip of ${mdCode(m.baseRef)}. Merge ${mdCode(m.baseRef)} into it or rebase it; the push re-evaluates the linked change.`,
  );
  return `\n\n${lines.join('<br>\n')}`;
}

/** A republished result says so, and how to get a new run (the heads, suite and config are unchanged). */
function reusedNote(view: LinkedChangeView): string {
  if (!view.reusedFrom) return '';
  return `\n\n♻️ Reused the result for these heads (evaluated ${mdText(view.reusedFrom)}); ${mdCode(FRESH_RUN_COMMAND)} runs it again.`;
}

/** Where commits are linked: the host of the members' pages (github.com or a GitHub Enterprise host). */
function webUrlOf(view: LinkedChangeView): string | undefined {
  const url = view.members[0]?.htmlUrl;
  try {
    return url ? new URL(url).origin : undefined;
  } catch {
    return undefined;
  }
}

/** A PR's head as a reader can find it: the short SHA, linked to the commit on the PR's host. */
function commitLink(m: PullInfo): string {
  const code = mdCode(shortSha(m.headSha));
  try {
    if (!/^[0-9a-f]{7,40}$/i.test(m.headSha)) return code;
    const origin = new URL(m.htmlUrl).origin;
    return `[${code}](<${origin}/${encodeURIComponent(m.ref.owner)}/${encodeURIComponent(m.ref.repo)}/commit/${m.headSha}>)`;
  } catch {
    return code;
  }
}

/** How far a running evaluation is: configurations done of planned, and the full one's outcome once in. */
export interface EvaluationProgress {
  planned: number;
  done: number;
  /** The full configuration's first run, as grading judges it: the verdict, before the matrix is complete. */
  full?: 'pass' | 'fail' | 'error' | 'unjudged';
}

/** "k configuration(s) to go" of a running evaluation. */
export function toGo(p: EvaluationProgress): string {
  const n = Math.max(0, p.planned - p.done);
  return `${n} ${n === 1 ? 'configuration' : 'configurations'} to go`;
}

/**
 * The running check's text: the verdict as soon as the full configuration is in (joint
 * necessity waits for the rest of the matrix), and how many configurations are done of planned.
 */
export function renderProgress(p: EvaluationProgress): CheckRunOutput {
  const rest = toGo(p);
  const count = `${p.done} of ${p.planned} configurations done.`;
  if (p.full === 'pass')
    return {
      title: `Tandem: resolved — joint necessity pending, ${rest}`,
      summary: `✅ **Resolved** — the full configuration passes; joint necessity pending, ${rest}.\n\n${count}`,
    };
  if (p.full === 'fail')
    return {
      title: `Tandem: not resolved — ${rest}`,
      summary: `❌ **Not resolved** — the full configuration fails; the rest of the matrix follows (${rest}).\n\n${count}`,
    };
  return { title: `Tandem: evaluating — ${p.done}/${p.planned} configurations`, summary: count };
}

/** The heads a notice names: each member with its head commit, linked. */
export function headsLine(view: LinkedChangeView): string {
  return view.members.map((m) => `${mdText(memberLabel(m))} ${commitLink(m)}`).join(', ');
}

/** The heads a comment without a report is for, as its footer names them. */
export function noReportHeads(view: LinkedChangeView): string {
  return view.members.map((m) => `${mdText(memberLabel(m))} ${mdCode(shortSha(m.headSha))}`).join(', ');
}

/** The heads a report comment is for, as its footer names them (`templates/partials/heads.md.hbs`). */
export function reportHeads(view: LinkedChangeView, report: Report, reveal: Reveal): string {
  return renderTemplate('result-heads.md.hbs', viewWithExtras(report, reveal, extrasOf(view, report))).trim();
}

/** The sticky comment: the same on every member. */
export function renderLinkedChangeComment(view: LinkedChangeView, report: Report, reveal: Reveal): string {
  // The report renderer trims itself, leaving room for the sticky comment's marker.
  return renderMarkdown(report, {
    reveal,
    maxChars: COMMENT_LIMIT.max - 1_536,
    extras: extrasOf(view, report),
  });
}

function extrasOf(view: LinkedChangeView, report: Report): ViewExtras {
  const webUrl = webUrlOf(view);
  const order = orderOf(view);
  return {
    setLine: renderSetLine(view) + conflictNote(view, report) + reusedNote(view),
    // Merged, the set has nothing left to evaluate.
    ...(view.merged ? {} : { rerunCommand: RERUN_COMMAND }),
    // The PR heads a reader can find on GitHub, not Tandem's merge of each onto its base.
    prHeads: view.members.map((m) => ({ repo: repoFullName(m.ref), sha: m.headSha })),
    ...(order.length > 0 ? { order } : {}),
    ...(webUrl ? { webUrl } : {}),
    // An unnecessary member is named as its PR, on line 2 ("acme/web#7 is not needed …").
    changeLabels: view.members.map((m) => ({ repo: repoFullName(m.ref), label: memberLabel(m) })),
    hiddenNamesNote: HIDDEN_NAMES_NOTE,
    ...(view.checkRunUrl ? { checkRunUrl: view.checkRunUrl } : {}),
    ...(view.jsonReportUrl ? { jsonReportUrl: view.jsonReportUrl } : {}),
    ...(view.suitePath ? { suitePath: view.suitePath } : {}),
  };
}

/** The `Tandem` check output of every member. */
export function renderLinkedChangeCheck(
  view: LinkedChangeView,
  report: Report,
  reveal: Reveal,
): CheckRunOutput {
  const base = renderCheckRunOutput(report, {
    reveal,
    extras: { ...extrasOf(view, report), checkRunUrl: '' },
  });
  return {
    title: base.title,
    summary: base.summary,
    ...(base.text ? { text: base.text } : {}),
  };
}

/**
 * No report: an infrastructure error (the App offers a re-run) or a suite the evaluator must
 * fix (`kind: 'suite'`, nothing to re-run). `message` is already cleaned of secrets and hidden
 * paths. Shaped as the report's comment is: the verdict line first, the set on one line, the
 * whole message folded, the footer.
 */
export function renderNoReport(
  view: LinkedChangeView,
  message: string,
  kind: 'infrastructure' | 'suite',
): { comment: string; check: CheckRunOutput } {
  if (kind === 'suite') {
    const advice = "The evaluator's suite must be fixed; nothing was evaluated.";
    return {
      comment: noReportComment(
        view,
        `⚠️ **Invalid suite** — ${NOT_A_VERDICT}: ${headlineOf(message)}`,
        message,
        advice,
      ),
      check: {
        title: INVALID_SUITE_TITLE,
        summary: `${checkBody(view, `**Invalid suite** — ${NOT_A_VERDICT}`, message)}\n\n${advice}`,
      },
    };
  }
  return {
    comment: noReportComment(
      view,
      `⚠️ **Infrastructure error** — ${NOT_A_VERDICT}: ${headlineOf(message)}`,
      message,
      // The verdict line already says it is not a verdict; the advice is what to do.
      RERUN_ADVICE,
    ),
    check: {
      title: INFRA_TITLE,
      summary: `${checkBody(view, '**Infrastructure error**', message)}\n\n${INFRA_ADVICE}`,
    },
  };
}

const RERUN_ADVICE = `Re-run the check or comment ${mdCode(RERUN_COMMAND)} once the cause is fixed.`;

/** A PR the caps kept out of the set: its check and its comment say why. */
export function renderRefused(
  view: LinkedChangeView,
  reason: string,
): { comment: string; check: CheckRunOutput } {
  const advice = 'Unlink pull requests (`/tandem unlink`) or raise `limits` in `tandem.yml`.';
  return {
    comment: noReportComment(view, `⛔ **Not evaluated** — ${mdText(reason)}`, '', advice),
    check: {
      title: 'Tandem: not evaluated (linked change over its limits)',
      summary: `Not evaluated: ${mdText(reason)}. ${advice}\n\n${renderSetSection(view)}`,
    },
  };
}

/** The first line of a message, escaped and short enough for the verdict line. */
function headlineOf(message: string): string {
  const first = message.split('\n').find((l) => l.trim() !== '') ?? '';
  return mdText(capText(first.trim(), 200));
}

/** The message whole, verbatim in a fence (it may hold paths, quotes and several lines). */
function messageBlock(message: string): string {
  return mdFence(capText(message, 4_000).split('\n'));
}

function checkBody(view: LinkedChangeView, label: string, message: string): string {
  return `${renderSetSection(view)}\n\n${label}:\n\n${messageBlock(message)}`;
}

function noReportComment(view: LinkedChangeView, verdict: string, message: string, advice: string): string {
  const lines = [verdict, ''];
  if (view.members.length > 0 || view.left.length > 0 || view.refused.length > 0)
    lines.push(renderSetLine(view), '');
  lines.push(advice, '');
  // A one-line message is already whole in the verdict line.
  if (message.trim().includes('\n') || message.length > 200)
    lines.push(
      '<details><summary>The whole message</summary>',
      '',
      messageBlock(message),
      '',
      '</details>',
      '',
    );
  const footer = ['Tandem'];
  if (view.members.length > 0) footer.push(`updated for ${noReportHeads(view)}`);
  if (view.checkRunUrl) footer.push(`[check run](<${view.checkRunUrl}>)`);
  lines.push(`<sub>${footer.join(' · ')}</sub>`);
  return lines.join('\n');
}

/** The organization's `tandem.yml` does not validate: the seed's check names the field. */
export function renderInvalidConfig(org: string, field: string, message: string): CheckRunOutput {
  return {
    title: `Tandem: invalid configuration (${field})`,
    summary: `${mdCode('.github/tandem.yml')} in ${mdCode(`${org}/.github`)} is invalid at ${mdCode(field)}: ${message}`,
  };
}

/** While the evaluator's workflow has the change: dispatched, then the run once it is known. */
export function renderHandoffProgress(h: {
  workflow: string;
  evaluator: string;
  runUrl?: string;
  members: readonly string[];
}): CheckRunOutput {
  const set = `Linked change: ${h.members.join(', ')}.`;
  return h.runUrl
    ? {
        title: 'Tandem: evaluating in GitHub Actions',
        summary: `Evaluating in GitHub Actions: ${h.runUrl}\n\n${set}`,
      }
    : {
        title: 'Tandem: dispatched to GitHub Actions',
        summary: `Dispatched to the ${mdCode(h.workflow)} workflow of ${mdCode(h.evaluator)}; waiting for the run to start.\n\n${set}`,
      };
}
