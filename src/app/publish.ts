/**
 * What members see: the same consolidated comment on every member PR and the `Tandem` check
 * output. Composes the set-level parts (members, who left, refused links, merge order) around
 * the report renderers. Hidden file paths never appear; test names only with `reveal: names`.
 */

import type { Refusal } from '../core/linked-set.ts';
import { repoOf } from '../core/linked-set.ts';
import type { Report } from '../core/report.schema.ts';
import { type CheckConclusion, type CheckOutput, INFRA_TITLE } from '../github/check-runs.ts';
import type { PullInfo } from '../github/pull-requests.ts';
import { renderCheckRunOutput } from '../report/check-run-output.ts';
import { renderMarkdown } from '../report/markdown-report.ts';
import type { LeftMember } from './resolve-set.ts';

export type Reveal = 'names' | 'counts';

export interface SetView {
  members: PullInfo[];
  left: LeftMember[];
  refused: Refusal[];
  mergeOrder?: string[];
}

export interface Outcome {
  conclusion: CheckConclusion;
  infra: boolean;
  headline: string;
}

export function outcomeOf(report: Report): Outcome {
  if (report.outcome === 'resolved') return { conclusion: 'success', infra: false, headline: '✅ resolved' };
  if (report.outcome === 'error')
    return { conclusion: 'failure', infra: true, headline: '⚠️ infrastructure error' };
  return { conclusion: 'failure', infra: false, headline: '❌ not resolved' };
}

export function memberLabel(p: PullInfo): string {
  return `${p.ref.owner}/${p.ref.repo}#${p.ref.number}`;
}

/** The set, who left it, refused links and the merge-order note, as Markdown. */
export function renderSetSection(view: SetView): string {
  const lines = ['**Linked change**', ''];
  for (const m of view.members)
    lines.push(`- ${memberLabel(m)} at \`${m.headSha.slice(0, 7)}\` onto \`${m.baseRef}\``);
  for (const l of view.left) {
    lines.push(
      l.state === 'merged'
        ? `- ~~${l.key}~~ merged${l.baseRef ? ` into \`${l.baseRef}\`` : ''}: its repository is taken at its new base`
        : `- ~~${l.key}~~ closed: left the set`,
    );
  }
  if (view.refused.length > 0) {
    lines.push('', '**Links not followed**', '');
    for (const r of view.refused) lines.push(`- ${r.from} → ${r.to}: ${r.reason}`);
  }
  const repos = new Set(view.members.map((m) => repoOf(memberLabel(m).toLowerCase())));
  const order = (view.mergeOrder ?? []).filter((r) => repos.has(r.toLowerCase()));
  if (order.length > 1) {
    lines.push(
      '',
      `**Merge order**: ${order.map((r) => `\`${r}\``).join(' → ')} (producers before consumers)`,
    );
  }
  return lines.join('\n');
}

/** Merge conflicts are named on every member, with the repository they happened in. */
function conflictNote(report: Report): string {
  const conflicts = report.infraErrors.filter((e) => e.kind === 'merge-conflict');
  if (conflicts.length === 0) return '';
  const repos = [...new Set(conflicts.map((c) => c.target ?? 'a member'))];
  return `\n\n**Merge conflict** in ${repos.map((r) => `\`${r}\``).join(', ')}: the PR does not merge onto the current tip of its base branch.`;
}

export function renderComment(view: SetView, report: Report, reveal: Reveal): string {
  const o = outcomeOf(report);
  const head = [`### Tandem: ${o.headline}`, '', renderSetSection(view) + conflictNote(report), ''].join(
    '\n',
  );
  // The report renderer trims itself; leave it what the set section did not use.
  return `${head}\n${renderMarkdown(report, { reveal, maxChars: Math.max(2_000, 64_000 - head.length) })}`;
}

export function renderCheck(view: SetView, report: Report, reveal: Reveal): CheckOutput {
  const o = outcomeOf(report);
  const base = renderCheckRunOutput(report, { reveal });
  return {
    title: o.infra ? INFRA_TITLE : base.title,
    summary: `${renderSetSection(view)}${conflictNote(report)}\n\n${base.summary}`,
    ...(base.text ? { text: base.text } : {}),
  };
}

/** When the evaluation failed before a report existed (fetch, engine crash). */
export function renderInfraFailure(view: SetView, message: string): { comment: string; check: CheckOutput } {
  const body = `${renderSetSection(view)}\n\n**Infrastructure error**: ${message}\n\nThis is not a verdict on the code. Re-run the check or comment \`/tandem run\`.`;
  return {
    comment: `### Tandem: ⚠️ infrastructure error\n\n${body}`,
    check: { title: INFRA_TITLE, summary: body },
  };
}
