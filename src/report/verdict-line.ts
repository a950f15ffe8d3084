/**
 * The first line of every comment, check run and job summary: one verdict with its reason in
 * words ("❌ Not resolved — 1 F2P test still fails in `acme/web` and 1 P2P test regresses in
 * `acme/api`"), so a reader knows where things stand without opening anything.
 */
import { NOT_A_VERDICT } from '../core/infra-wording.ts';
import { mdCode, mdText } from './markdown-escape.ts';
import type { ReportView } from './report-view.ts';

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const f2pFailText = (n: number) => count(n, 'F2P test still fails', 'F2P tests still fail');
const p2pRegressText = (n: number) => count(n, 'P2P test regresses', 'P2P tests regress');

/** Past this many repository-specific reasons the line counts repositories instead. */
const MAX_NAMED_REASONS = 3;

function joinWords(parts: string[]): string {
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

function unresolvedReasons(view: ReportView): string[] {
  const named: string[] = [];
  const rows = view.repositories;
  for (const r of rows) {
    const f = r.f2p.total - r.f2p.passed;
    if (f > 0) named.push(`${f2pFailText(f)} in ${mdCode(r.repo)}`);
  }
  for (const r of rows) {
    const p = r.p2p.total - r.p2p.passed;
    if (p > 0) named.push(`${p2pRegressText(p)} in ${mdCode(r.repo)}`);
  }
  if (named.length <= MAX_NAMED_REASONS) return named;
  const inRepos = (pick: (r: ReportView['repositories'][number]) => boolean) => rows.filter(pick).length;
  const out: string[] = [];
  const f2pRepos = inRepos((r) => r.f2p.passed < r.f2p.total);
  const p2pRepos = inRepos((r) => r.p2p.passed < r.p2p.total);
  if (view.f2p.failing > 0)
    out.push(`${f2pFailText(view.f2p.failing)} in ${count(f2pRepos, 'repository', 'repositories')}`);
  if (view.p2p.failing > 0)
    out.push(`${p2pRegressText(view.p2p.failing)} in ${count(p2pRepos, 'repository', 'repositories')}`);
  return out;
}

/** The verdict line, Markdown (repository names in code spans, free text escaped). */
export function verdictLine(view: ReportView): string {
  if (view.partial) {
    const p = view.partial;
    return `🧩 Partial report (shard ${mdText(p.shard)}): ${p.ran} of ${p.planned} planned configurations ran here; merge the shards for the verdict.`;
  }
  if (view.outcome === 'error' && view.conflicts.length > 0) {
    const who = joinWords(view.conflicts.map((r) => mdCode(r)));
    const one = view.conflicts.length === 1;
    return `⚠️ **Merge conflict** — the pull request in ${who} does not merge onto ${one ? 'its' : 'their'} base; updating ${one ? 'it' : 'them'} will re-evaluate the change (${NOT_A_VERDICT})`;
  }
  if (view.invalidSuite) {
    const s = view.invalidSuite;
    const where = `suite ${s.suitePath ? `${mdCode(s.suitePath)} ` : ''}field ${s.fields.map((f) => mdCode(f)).join(', ')}`;
    const ids = s.ids.length
      ? `; never reported: ${s.ids.map((id) => mdCode(id)).join(', ')}${s.more > 0 ? ` and ${s.more} more` : ''}`
      : '';
    return `⚠️ **Invalid suite** — ${NOT_A_VERDICT}: ${mdText(s.message)} (${where})${ids}`;
  }
  if (view.outcome === 'error') {
    const detail = view.hasSummary ? `: ${mdText(view.summary)}` : '';
    return `⚠️ **Infrastructure error** — ${NOT_A_VERDICT}${detail}`;
  }
  if (view.outcome === 'resolved') {
    const repos = view.repositories.length;
    const p2p = view.p2p.total > 0 ? ' and no P2P test regresses' : '';
    return `✅ **Resolved** — ${view.f2p.total === 1 ? 'the F2P test passes' : `all ${view.f2p.total} F2P tests pass`}${p2p}${repos > 1 ? ` across ${repos} repositories` : ''}`;
  }
  const reasons = unresolvedReasons(view);
  // Tests of groups tied to no repository are in no per-repository row: count them overall.
  if (reasons.length === 0) {
    if (view.f2p.failing > 0) reasons.push(f2pFailText(view.f2p.failing));
    if (view.p2p.failing > 0) reasons.push(p2pRegressText(view.p2p.failing));
  }
  const why = reasons.length > 0 ? joinWords(reasons) : view.hasSummary ? mdText(view.summary) : '';
  return `❌ **Not resolved**${why ? ` — ${why}` : ''}`;
}
