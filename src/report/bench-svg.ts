/**
 * The benchmark report's charts as inline SVG strings (no script, no external font or file, so
 * the HTML opens offline): grouped bars of resolved rate by number of repositories, and the
 * instances × models heatmap. Every text is escaped here.
 */
import type { BenchView, CellKind } from './bench-view.ts';

const PALETTE = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#edc948', '#b07aa1', '#ff9da7'];
export const CELL_COLORS: Record<CellKind, string> = {
  resolved: '#2e9d4e',
  unresolved: '#d9534f',
  'empty-patch': '#bdbdbd',
  error: '#f0ad4e',
  missing: '#ffffff',
};

/** Roughly the advance of one 11 px sans-serif character: enough to size the canvas. */
const CHAR_W = 6.6;
/** Longest labels shown whole; longer ones end in "…" (the full text is in the `<title>`). */
const MAX_MODEL = 28;
const MAX_LEGEND = 18;
const MAX_INSTANCE = 36;

/** A label cut to `max` characters, escaped; with the full text as a tooltip when cut. */
function label(text: string, max: number): { svg: string; chars: number } {
  if (text.length <= max) return { svg: escapeXml(text), chars: text.length };
  return { svg: `${escapeXml(`${text.slice(0, max - 1)}…`)}<title>${escapeXml(text)}</title>`, chars: max };
}

export function escapeXml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

/** Grouped bars: one group per repository count, one bar per model, height = resolved %. */
export function resolvedByRepoCountSvg(view: BenchView): string {
  const groups = view.byRepoCount;
  const n = Math.max(1, view.models.length);
  const bar = 18;
  const gap = 24;
  const groupW = n * bar + gap;
  const h = 160;
  const left = 36;
  const width = left + Math.max(1, groups.length) * groupW + 10;
  const parts: string[] = [];
  for (const t of [0, 50, 100]) {
    const y = 10 + h - (t / 100) * h;
    parts.push(`<line x1="${left}" x2="${width}" y1="${y}" y2="${y}" stroke="#ddd"/>`);
    parts.push(`<text x="${left - 4}" y="${y + 4}" text-anchor="end" font-size="10">${t}%</text>`);
  }
  groups.forEach((g, gi) => {
    g.rates.forEach((r, mi) => {
      const x = left + gi * groupW + gap / 2 + mi * bar;
      const bh = (r.rate / 100) * h;
      parts.push(
        `<rect class="bar" data-model="${escapeXml(r.model)}" data-repos="${escapeXml(g.repos)}" x="${x}" y="${10 + h - bh}" width="${bar - 2}" height="${bh}" fill="${PALETTE[mi % PALETTE.length]}"><title>${escapeXml(`${r.model}, ${g.repos} repositories: ${r.resolved}/${r.total} (${r.rate}%)`)}</title></rect>`,
      );
    });
    parts.push(
      `<text x="${left + gi * groupW + groupW / 2}" y="${h + 26}" text-anchor="middle" font-size="11">${escapeXml(g.repos)} repo${g.repos === '1' ? '' : 's'}</text>`,
    );
  });
  // Legend entries are 140 px apart: names are cut to fit (MAX_LEGEND × CHAR_W < 140 − 14).
  const legend = view.models
    .map(
      (m, i) =>
        `<rect x="${left + i * 140}" y="${h + 36}" width="10" height="10" fill="${PALETTE[i % PALETTE.length]}"/><text x="${left + i * 140 + 14}" y="${h + 45}" font-size="11">${label(m, MAX_LEGEND).svg}</text>`,
    )
    .join('');
  const totalW = Math.max(width, left + n * 140);
  return `<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="Resolved rate by number of repositories" width="${totalW}" height="${h + 56}" font-family="sans-serif">${parts.join('')}${legend}</svg>`;
}

/** Rows = instances, columns = models; a cell's colour is the outcome. */
export function heatmapSvg(view: BenchView): string {
  const cell = 22;
  const models = view.models.map((m) => label(m, MAX_MODEL));
  const ids = view.instances.map((i) => label(i.id, MAX_INSTANCE));
  const labelW = Math.ceil(10 + CHAR_W * Math.max(8, ...ids.map((l) => l.chars)));
  // Column heads are rotated 60°: a label of length L rises L·sin 60° and leans L·cos 60° right.
  const longest = CHAR_W * Math.max(6, ...models.map((l) => l.chars));
  const headH = Math.ceil(14 + longest * Math.sin(Math.PI / 3));
  const w = Math.ceil(labelW + view.models.length * cell + Math.max(10, longest * Math.cos(Math.PI / 3)));
  const h = headH + view.instances.length * cell + 10;
  const parts: string[] = [];
  models.forEach((m, j) => {
    const x = labelW + j * cell + cell / 2;
    parts.push(
      `<text x="${x}" y="${headH - 4}" font-size="11" transform="rotate(-60 ${x} ${headH - 4})">${m.svg}</text>`,
    );
  });
  view.instances.forEach((inst, i) => {
    const y = headH + i * cell;
    parts.push(
      `<text x="${labelW - 6}" y="${y + cell / 2 + 4}" text-anchor="end" font-size="11">${ids[i]!.svg}</text>`,
    );
    inst.cells.forEach((c, j) => {
      parts.push(
        `<rect class="cell" data-instance="${escapeXml(inst.id)}" data-model="${escapeXml(c.model)}" data-kind="${c.kind}" x="${labelW + j * cell}" y="${y}" width="${cell - 2}" height="${cell - 2}" fill="${CELL_COLORS[c.kind]}" stroke="#999" stroke-width="0.5"><title>${escapeXml(`${inst.id} × ${c.model}: ${c.kind}`)}</title></rect>`,
      );
    });
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="Instances by models" width="${w}" height="${h}" font-family="sans-serif">${parts.join('')}</svg>`;
}
