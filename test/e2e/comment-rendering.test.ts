/**
 * The App's comment as a reader sees it on github.com: the comments of 2-, 3-, 5- and 8-PR
 * linked changes (full matrices: 4 to 256 configurations) rendered by markdown-it (GFM tables,
 * HTML `<details>` as GitHub allows) inside GitHub's own stylesheet (github-markdown-css) in a
 * 728 px column, in headless Chromium. Checked: nothing is wider than the column (no table or
 * page scrolls sideways), the folded comment stays short, and the verdict is its first line.
 * The heads are named as the App names them, by full 40-character SHA (issue 21: such refs once
 * made the Targets table wider than the column). Screenshots (folded and unfolded) of every case
 * are kept in test-artifacts/comments/ (gitignored), e.g. `3-prs-resolved-open.png`,
 * `8-prs-unresolved-open.png`.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import MarkdownIt from 'markdown-it';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderLinkedChangeComment } from '../../src/report/linked-change.ts';
import { linkedReport, linkedView } from '../helpers/comment-cases.ts';
import { REPO_ROOT } from '../helpers/example-cases.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = path.join(REPO_ROOT, 'test-artifacts', 'comments');
/** GitHub's conversation column: a comment body is at most this wide. */
const COLUMN_PX = 728;
/** The folded comment (verdict, linked PRs, per-repository table, closed sections, footer). */
const MAX_FOLDED_HEIGHT_PX = 560;

const require = createRequire(import.meta.url);
let css: string;
let browser: Browser;
const md = new MarkdownIt({ html: true, linkify: true });

beforeAll(async () => {
  css = await readFile(require.resolve('github-markdown-css/github-markdown-light.css'), 'utf8');
  await mkdir(ARTIFACTS, { recursive: true });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

function page(body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><style>${css}
body { margin: 0; background: #fff; }
.markdown-body { box-sizing: border-box; width: ${COLUMN_PX}px; padding: 16px; font-size: 14px; }
</style></head><body><article class="markdown-body">${body}</article></body></html>`;
}

interface Measure {
  height: number;
  articleOverflow: number;
  tables: Array<{ scroll: number; client: number }>;
  firstLine: string;
  /** Links to `…/commit/<sha>` the reader can follow. */
  commitLinks: number;
  text: string;
}

async function render(name: string, markdown: string, open: boolean): Promise<Measure> {
  const p = await browser.newPage({ viewport: { width: COLUMN_PX, height: 400 } });
  try {
    await p.setContent(page(md.render(markdown)), { waitUntil: 'load' });
    if (open)
      await p.$$eval('details', (ds) => {
        for (const d of ds) d.setAttribute('open', '');
      });
    const m = await p.$eval('article', (a) => ({
      height: a.getBoundingClientRect().height,
      articleOverflow: a.scrollWidth - a.clientWidth,
      tables: [...a.querySelectorAll('table')].map((t) => ({ scroll: t.scrollWidth, client: t.clientWidth })),
      firstLine: a.firstElementChild?.textContent ?? '',
      commitLinks: [...a.querySelectorAll('a')].filter((l) => /\/commit\/[0-9a-f]{40}$/.test(l.href)).length,
      text: a.textContent ?? '',
    }));
    await p
      .locator('article')
      .screenshot({ path: path.join(ARTIFACTS, `${name}${open ? '-open' : ''}.png`) });
    await writeFile(path.join(ARTIFACTS, `${name}.md`), markdown);
    return m;
  } finally {
    await p.close();
  }
}

describe('the linked-change comment in GitHub-like rendering', () => {
  for (const n of [2, 3, 5, 8]) {
    for (const outcome of ['resolved', 'unresolved'] as const) {
      it(`${n} PRs, ${outcome}: within the ${COLUMN_PX} px column, short when folded`, async () => {
        const text = renderLinkedChangeComment(linkedView(n), linkedReport(n, outcome), 'messages');
        const folded = await render(`${n}-prs-${outcome}`, text, false);
        expect(folded.firstLine).toMatch(outcome === 'resolved' ? /^✅ Resolved — / : /^❌ Not resolved — /);
        expect(folded.articleOverflow).toBe(0);
        for (const t of folded.tables) expect(t.scroll).toBeLessThanOrEqual(t.client);
        expect(folded.height).toBeLessThan(MAX_FOLDED_HEIGHT_PX);
        const opened = await render(`${n}-prs-${outcome}`, text, true);
        expect(opened.articleOverflow).toBe(0);
        for (const t of opened.tables) expect(t.scroll).toBeLessThanOrEqual(t.client);
        // Unfolded, the matrix is a summary line beyond three PRs, not 2^n rows.
        expect(opened.height).toBeLessThan(n <= 3 ? 1_600 : 1_900);
        // The commits quoted are the PR heads (short, linked), not Tandem's merge commits.
        expect(opened.commitLinks).toBeGreaterThanOrEqual(2 * n);
        expect(opened.text).not.toMatch(/[0-9a-f]{40}/);
      }, 60_000);
    }
  }

  it('for authors: line 2 names the PR not needed; hidden names and untested repositories are said', async () => {
    const report = linkedReport(3, 'resolved', 'full', { needless: 'acme/web', untested: 'acme/cli' });
    const text = renderLinkedChangeComment(linkedView(3), report, 'counts');
    const p = await browser.newPage({ viewport: { width: COLUMN_PX, height: 400 } });
    try {
      await p.setContent(page(md.render(text)), { waitUntil: 'load' });
      // As a reader sees it: the verdict, then on the next rendered line the PR not needed.
      const first = (await p.locator('article > :first-child').innerText()).split('\n');
      expect(first[0]).toMatch(/^✅ Resolved — /);
      expect(first[1]).toBe('➖ acme/web#11 is not needed for this change: it resolves without it.');
      const visible = await p.locator('article').innerText();
      expect(visible).toContain(
        "No hidden tests in acme/cli: its change is judged only through the other repositories' tests.",
      );
      await p.locator('article').screenshot({ path: path.join(ARTIFACTS, 'for-authors.png') });
    } finally {
      await p.close();
    }
  }, 60_000);
});
