/**
 * The benchmark report's HTML as a reader on a phone sees it (420 px, headless Chromium): the
 * page never scrolls sideways (wide tables and charts scroll in their own box), model names are
 * left-aligned on one line, the heatmap has a legend in its own colours, a failing base or partial
 * configuration is not painted as a failure, a patch that did not apply says so, and the run id
 * and date are shown. Built from a view (the renderer alone); a screenshot is kept in
 * test-artifacts/bench-report-420.png.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderBenchHtml } from '../../src/report/bench-render.ts';
import { CELL_COLORS } from '../../src/report/bench-svg.ts';
import type { BenchView, LeaderboardRow } from '../../src/report/bench-view.ts';
import { REPO_ROOT } from '../helpers/example-cases.ts';

// The page's globals, for the function page.evaluate runs in Chromium: the project compiles
// without the DOM library, so they are declared here for this file only.
declare const document: {
  documentElement: Element;
  querySelector(s: string): Element | null;
  querySelectorAll(s: string): Iterable<Element>;
};
interface Element {
  scrollWidth: number;
  clientWidth: number;
  textContent: string | null;
  getBoundingClientRect(): { height: number; width: number };
  querySelector(s: string): Element | null;
}
type HTMLElement = Element;
declare function getComputedStyle(e: Element): { textAlign: string; backgroundColor: string };

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = path.join(REPO_ROOT, 'test-artifacts');
const MODELS = ['gpt-5-codex-2026-10-01-high-reasoning', 'claude-agent-with-a-long-name/v2'];

function row(model: string, resolved: number): LeaderboardRow {
  return {
    model,
    runId: 'nightly-2026-12-01',
    resolved,
    total: 2,
    caseSuccess: resolved * 50,
    repositorySuccess: 75,
    f2pComplete: 80,
    p2pPreserved: 100,
    fixRate: 66.7,
    applyRate: 100,
    empty: 0,
    errors: 0,
    attempts: 3,
    passAt1: resolved * 40,
    passAtK: resolved * 50,
    ciLow: 34.2,
    ciHigh: 100,
  };
}

const view: BenchView = {
  models: MODELS,
  leaderboard: [row(MODELS[0]!, 2), row(MODELS[1]!, 1)],
  passAtKHeader: 'pass@3 %',
  namesWarnings: [],
  byRepoCount: [
    {
      repos: '2',
      rates: MODELS.map((model, i) => ({
        model,
        rate: i === 0 ? 100 : 50,
        shown: i === 0 ? '100%' : '50%',
        resolved: 2 - i,
        total: 2,
      })),
    },
  ],
  instances: ['acme-1', 'acme-2'].map((id, n) => ({
    id,
    repoCount: 2,
    repoLabel: '2 repositories',
    cells: MODELS.map((model, i) => ({
      model,
      kind: i === 1 && n === 1 ? 'unresolved' : 'resolved',
      fixRate: 1,
    })),
    details: MODELS.map((model, i) => ({
      model,
      kind: i === 1 && n === 1 ? ('unresolved' as const) : ('resolved' as const),
      matrix: [
        { id: 'base', applied: '', outcome: 'fail', passed: 1, total: 3 },
        { id: 'api', applied: 'acme/api', outcome: 'fail', passed: 2, total: 3 },
        {
          id: 'full',
          applied: 'acme/api, acme/web',
          outcome: i === 1 && n === 1 ? 'fail' : 'pass',
          passed: 3,
          total: 3,
        },
      ],
      diagnosis: [],
      notApplied: i === 1 && n === 1 ? ['acme/web'] : [],
      namesWarning: '',
    })),
  })),
  diagnosisKinds: ['wrong-repo'],
  diagnosis: MODELS.map((model) => ({ model, counts: [0] })),
};

let browser: Browser;
beforeAll(async () => {
  await mkdir(ARTIFACTS, { recursive: true });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}, 120_000);
afterAll(async () => {
  await browser?.close();
});

describe('bench report --html at 420 px', () => {
  it('is readable on a narrow screen and says what its colours mean', async () => {
    const html = renderBenchHtml(view, { generatedAt: new Date('2026-12-01T22:00:00.123Z') });
    const page = await browser.newPage({ viewport: { width: 420, height: 800 } });
    try {
      await page.setContent(html, { waitUntil: 'load' });
      const m = await page.evaluate(() => {
        const doc = document.documentElement;
        const modelCells = [...document.querySelectorAll('#leaderboard td.model')] as HTMLElement[];
        return {
          pageOverflow: doc.scrollWidth - doc.clientWidth,
          modelAlign: modelCells.map((c) => getComputedStyle(c).textAlign),
          modelLines: modelCells.map((c) => Math.round(c.getBoundingClientRect().height)),
          rowHeight: Math.round(
            (document.querySelector('#leaderboard td') as HTMLElement).getBoundingClientRect().height,
          ),
          legend: [...document.querySelectorAll('#heatmap-legend li')].map((li) => ({
            text: li.textContent,
            color: getComputedStyle(li.querySelector('.swatch')!).backgroundColor,
          })),
          meta: document.querySelector('#run-meta')?.textContent ?? '',
          rowBackgrounds: [...document.querySelectorAll('.instance table.matrix tr')]
            .slice(1, 4)
            .map((tr) => getComputedStyle(tr).backgroundColor),
          notApplied: [...document.querySelectorAll('.not-applied')].map((e) => e.textContent),
        };
      });
      await page.screenshot({ path: path.join(ARTIFACTS, 'bench-report-420.png'), fullPage: true });
      expect(m.pageOverflow).toBe(0);
      expect(m.modelAlign).toEqual(['left', 'left']);
      // One line each: no taller than the rank cell beside it.
      for (const h of m.modelLines) expect(h).toBe(m.rowHeight);
      expect(m.legend.map((l) => l.text)).toEqual([
        'resolved',
        'not resolved',
        'empty patch',
        'error (counts as not resolved)',
        'no prediction',
      ]);
      const rgb = (hex: string) =>
        `rgb(${[1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;
      expect(m.legend[0]!.color).toBe(rgb(CELL_COLORS.resolved));
      expect(m.legend[1]!.color).toBe(rgb(CELL_COLORS.unresolved));
      expect(m.meta).toBe('Run nightly-2026-12-01 · report written 2026-12-01T22:00:00Z');
      // base and a partial fail as expected: grey, not the failure pink; full passes green.
      expect(m.rowBackgrounds).toEqual(['rgb(245, 245, 245)', 'rgb(245, 245, 245)', 'rgb(232, 245, 233)']);
      expect(m.notApplied).toEqual(['patch did not apply']);
    } finally {
      await page.close();
    }
  }, 60_000);
});
