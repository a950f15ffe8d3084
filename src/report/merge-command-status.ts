/**
 * What `/tandem merge` says on every member of the linked change, from `templates/merge.md.hbs`:
 * merged, refused before anything merged (with every reason), or half-merged — which PR was
 * refused and why, which are merged, which were not attempted. Every string from GitHub or a
 * repository (PR keys, reasons, GitHub's messages, the requester) is escaped by the template's
 * helpers; nothing is quoted raw.
 */
import Handlebars from 'handlebars';
import type { MergeOutcome, MergeStep } from '../core/merge-command-plan.ts';
import { mdCode, mdText } from './markdown-escape.ts';
import { loadTemplate } from './templates.ts';

/** The command, as the comment quotes it. */
export const MERGE_COMMAND = '/tandem merge';

export interface MergeStatus {
  /** `running` while it merges (so a crash mid-merge never stays silent). */
  outcome: MergeOutcome | 'running';
  requestedBy: string;
  /** Members in merge order with what happened to each; `pending` while running. */
  steps: Array<Omit<MergeStep, 'result'> & { result: MergeStep['result'] | 'pending' }>;
  /** Why nothing was attempted (the preconditions), when that is why. */
  reasons?: string[];
  /** The set was merged by an earlier `/tandem merge`. */
  alreadyMerged?: boolean;
  /** Things worth knowing about the order (links in a cycle fell back to `merge_order`). */
  notes?: string[];
}

const env = Handlebars.create();
env.registerHelper('text', (v: unknown) => mdText(v));
env.registerHelper('code', (v: unknown) => mdCode(v));
env.registerHelper('cellcode', (v: unknown) => mdCode(v).replaceAll('|', '\\|'));
env.registerHelper('cell', (v: unknown) => mdText(v));
env.registerHelper('short', (sha: unknown) => String(sha ?? '').slice(0, 7));
env.registerHelper('eq', (a: unknown, b: unknown) => a === b);
env.registerHelper('plural', (n: number, one: string, many: string) => (n === 1 ? one : many));

let template: HandlebarsTemplateDelegate | undefined;

export function renderMergeStatus(status: MergeStatus): string {
  template ??= env.compile(loadTemplate('merge.md.hbs'), { noEscape: true, strict: false });
  const merged = status.steps.filter((s) => s.result === 'merged').length;
  const reasons = status.reasons ?? [];
  return `${template({
    ...status,
    command: MERGE_COMMAND,
    reasons,
    firstReason: reasons[0],
    moreReasons: reasons.slice(1),
    refused: status.steps.find((s) => s.result === 'refused'),
    mergedCount: merged,
    restCount: status.steps.length - merged,
  })
    .replace(/\n{3,}/g, '\n\n')
    .trim()}\n`;
}
