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
  const legend = view.models
    .map(
      (m, i) =>
        `<rect x="${left + i * 140}" y="${h + 36}" width="10" height="10" fill="${PALETTE[i % PALETTE.length]}"/><text x="${left + i * 140 + 14}" y="${h + 45}" font-size="11">${escapeXml(m)}</text>`,
    )
    .join('');
  const totalW = Math.max(width, left + n * 140);
  return `<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="Resolved rate by number of repositories" width="${totalW}" height="${h + 56}" font-family="sans-serif">${parts.join('')}${legend}</svg>`;
}

/** Rows = instances, columns = models; a cell's colour is the outcome. */
export function heatmapSvg(view: BenchView): string {
  const cell = 22;
  const labelW = 10 + Math.min(260, 7 * Math.max(8, ...view.instances.map((i) => i.id.length)));
  const headH = 10 + Math.min(160, 7 * Math.max(6, ...view.models.map((m) => m.length)));
  const w = labelW + view.models.length * cell + 10;
  const h = headH + view.instances.length * cell + 10;
  const parts: string[] = [];
  view.models.forEach((m, j) => {
    const x = labelW + j * cell + cell / 2;
    parts.push(
      `<text x="${x}" y="${headH - 4}" font-size="11" transform="rotate(-60 ${x} ${headH - 4})">${escapeXml(m)}</text>`,
    );
  });
  view.instances.forEach((inst, i) => {
    const y = headH + i * cell;
    parts.push(
      `<text x="${labelW - 6}" y="${y + cell / 2 + 4}" text-anchor="end" font-size="11">${escapeXml(inst.id)}</text>`,
    );
    inst.cells.forEach((c, j) => {
      parts.push(
        `<rect class="cell" data-instance="${escapeXml(inst.id)}" data-model="${escapeXml(c.model)}" data-kind="${c.kind}" x="${labelW + j * cell}" y="${y}" width="${cell - 2}" height="${cell - 2}" fill="${CELL_COLORS[c.kind]}" stroke="#999" stroke-width="0.5"><title>${escapeXml(`${inst.id} × ${c.model}: ${c.kind}`)}</title></rect>`,
      );
    });
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="Instances by models" width="${w}" height="${h}" font-family="sans-serif">${parts.join('')}</svg>`;
}
