/**
 * `tandem bench report` in a real headless Chromium (Debian's `chromium` driven by
 * playwright-core): two models scored by `tandem bench run` on a generated instance, the HTML
 * report opened offline from disk — it renders, the leaderboard and heatmap rows are right, it
 * loads nothing from the network; a prediction that changes one repository lists only it as
 * applied — and a screenshot is kept in test-artifacts/.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { heatmapSvg, resolvedByRepoCountSvg } from '../../src/report/bench-svg.ts';
import type { BenchView } from '../../src/report/bench-view.ts';
import { API, type BenchFixture, benchFixture, WEB } from '../helpers/bench-fixtures.ts';
import { dockerSuite } from '../helpers/docker-suite.ts';
import { REPO_ROOT, runCli } from '../helpers/example-cases.ts';
import { makeTempDir } from '../helpers/git-fixtures.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = path.join(REPO_ROOT, 'test-artifacts');
const docker = dockerSuite('bench-report');
let fx: BenchFixture;
let html: string;
let markdown: string;
let apiOnlyHtml: string;
let browser: Browser;

beforeAll(async () => {
  fx = await benchFixture(docker.track(await makeTempDir('tandem-bench-report-')));
  const instances = await fx.writeInstances('instances.jsonl', [await fx.instance()]);
  const predictions = await fx.writePredictions(
    'agent.jsonl',
    JSON.stringify({
      instance_id: 'acme-1',
      model_name_or_path: 'agent <b>x</b>',
      model_patches: {
        [API]: await fx.diff('api', { FIELD: 'total\n' }),
        [WEB]: await fx.diff('web', { ACCEPTS: 'amount\n' }),
      },
    }),
  );
  const common = ['--instances', instances, '--run-id', 'r1', '--runs-dir', path.join(fx.root, 'runs')];
  const flags = ['--cache-dir', docker.cacheDir, '--matrix', 'full', '--quiet'];
  expect((await runCli(['bench', 'run', ...common, '--predictions', 'gold', ...flags])).code).toBe(0);
  expect(
    (await runCli(['bench', 'run', ...common, '--predictions', predictions, '--diagnose', ...flags])).code,
  ).toBe(0);
  html = path.join(fx.root, 'report.html');
  markdown = path.join(fx.root, 'report.md');
  const report = await runCli([
    'bench',
    'report',
    path.join(fx.root, 'runs', 'r1'),
    '--html',
    html,
    '--markdown',
    markdown,
  ]);
  expect(report.code).toBe(0);
  // A second run whose prediction changes acme/api only: its matrix says web was never applied.
  const apiOnly = await fx.writePredictions(
    'api-only.jsonl',
    JSON.stringify({
      instance_id: 'acme-1',
      model_name_or_path: 'api-only',
      model_patches: { [API]: await fx.diff('api', { FIELD: 'total\n' }) },
    }),
  );
  const second = ['--instances', instances, '--run-id', 'r2', '--runs-dir', path.join(fx.root, 'runs')];
  expect((await runCli(['bench', 'run', ...second, '--predictions', apiOnly, ...flags])).code).toBe(0);
  apiOnlyHtml = path.join(fx.root, 'api-only.html');
  expect(
    (await runCli(['bench', 'report', path.join(fx.root, 'runs', 'r2'), '--html', apiOnlyHtml])).code,
  ).toBe(0);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}, 600_000);

afterAll(async () => {
  await browser?.close();
});

describe('bench report in Chromium', () => {
  it('renders offline: leaderboard rows ranked, heatmap cells by outcome, matrix and diagnosis per instance', async () => {
    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    const requests: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith('file:')) requests.push(r.url());
    });
    await page.goto(pathToFileURL(html).href);
    expect(await page.title()).toBe('Tandem benchmark report');
    const rows = await page.$$eval('#leaderboard tbody tr', (trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].slice(1, 4).map((td) => td.textContent)),
    );
    // The model name is text, not markup: escaped.
    expect(rows).toEqual([
      ['gold', '1/1', '100'],
      ['agent <b>x</b>', '0/1', '0'],
    ]);
    const cells = await page.$$eval('#heatmap rect.cell', (rs) =>
      rs.map((r) => [
        r.getAttribute('data-instance'),
        r.getAttribute('data-model'),
        r.getAttribute('data-kind'),
      ]),
    );
    expect(cells).toEqual([
      ['acme-1', 'gold', 'resolved'],
      ['acme-1', 'agent <b>x</b>', 'unresolved'],
    ]);
    const bars = await page.$$eval('#by-repo-count rect.bar', (rs) =>
      rs.map((r) => Number(r.getAttribute('height'))),
    );
    expect(bars[0]).toBeGreaterThan(0);
    expect(bars[1]).toBe(0);
    const svgBox = await page.locator('#heatmap svg').boundingBox();
    expect(svgBox!.width).toBeGreaterThan(40);
    await page.locator('#instance-acme-1 details').nth(1).locator('summary').click();
    const summaryText = await page
      .locator('#instance-acme-1 details')
      .nth(1)
      .locator('summary')
      .textContent();
    expect(summaryText).toContain('cross-repository inconsistency');
    const matrix = await page.$$eval('#instance-acme-1 details:nth-of-type(2) table.matrix tbody tr', (trs) =>
      trs
        .map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent))
        .map((c) => `${c[0]}:${c[2]}`),
    );
    // The prediction's own matrix: every partial has the other repository at base.
    expect(matrix).toEqual(['base:fail', 'api:fail', 'web:fail', 'full:fail']);
    expect(requests).toEqual([]);
    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS, 'bench-report.png'), fullPage: true });
    await page.close();
  });

  it('lists as applied only the repositories a prediction changed', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(pathToFileURL(apiOnlyHtml).href);
      await page.locator('#instance-acme-1 details').first().locator('summary').click();
      const applied = await page.$$eval('#instance-acme-1 details table.matrix tbody tr', (trs) =>
        trs.map((tr) => {
          const c = [...tr.querySelectorAll('td')].map((td) => td.textContent);
          return `${c[0]}:${c[1]}`;
        }),
      );
      // acme/web is at head in `web` and `full` only as the test base: the patch left it empty.
      expect(applied).toEqual(['base:—', 'api:acme/api', 'web:—', 'full:acme/api']);
    } finally {
      await page.close();
    }
  });

  it('writes the same leaderboard as Markdown', async () => {
    const { readFile } = await import('node:fs/promises');
    const text = await readFile(markdown, 'utf8');
    expect(text).toContain('| 1 | gold | 1/1 | 100 |');
    // The model name is Markdown-escaped text (report/markdown-escape.ts), not raw HTML.
    expect(text).toContain('| 2 | agent \\<b\\>x\\</b\\> | 0/1 | 0 |');
    expect(text).toContain('| acme-1 | resolved | unresolved |');
  });
});

describe('bench charts with long names in Chromium', () => {
  it('keeps every label inside its chart, cut with an ellipsis and the full name as a tooltip', async () => {
    const long = (i: number) => `org-${i}/a-very-long-model-name-with-a-checkpoint-suffix-2026-11-30-v${i}`;
    const models = [1, 2, 3, 4].map(long);
    const id = 'acme__a-really-long-instance-identifier-from-a-mined-history-12345';
    const view = {
      models,
      leaderboard: [],
      byRepoCount: [
        { repos: '2', rates: models.map((model) => ({ model, rate: 50, resolved: 1, total: 2 })) },
      ],
      instances: [{ id, cells: models.map((model) => ({ model, kind: 'resolved' })) }],
      diagnosisKinds: [],
      diagnosis: [],
    } as unknown as BenchView;
    const page = await browser.newPage();
    try {
      await page.setContent(
        `<body style="margin:0">${heatmapSvg(view)}${resolvedByRepoCountSvg(view)}</body>`,
      );
      const overflow = await page.$$eval('svg', (svgs) =>
        svgs.flatMap((svg) => {
          const box = svg.getBoundingClientRect();
          return [...svg.querySelectorAll('text')]
            .map((t) => ({ text: t.textContent, r: t.getBoundingClientRect() }))
            .filter(
              ({ r }) =>
                r.left < box.left - 1 ||
                r.right > box.right + 1 ||
                r.top < box.top - 1 ||
                r.bottom > box.bottom + 1,
            )
            .map(({ text }) => text);
        }),
      );
      expect(overflow).toEqual([]);
      // Legend entries do not run into each other.
      const legend = await page.$$eval('svg:nth-of-type(2) text', (ts) =>
        ts.filter((t) => t.textContent?.startsWith('org-')).map((t) => t.getBoundingClientRect()),
      );
      for (let i = 1; i < legend.length; i++) expect(legend[i]!.left).toBeGreaterThan(legend[i - 1]!.right);
      const titles = await page.$$eval('svg:first-of-type text title', (ts) => ts.map((t) => t.textContent));
      expect(titles).toEqual(expect.arrayContaining([...models, id]));
      await page.screenshot({ path: path.join(ARTIFACTS, 'bench-charts-long-names.png'), fullPage: true });
    } finally {
      await page.close();
    }
  });
});
