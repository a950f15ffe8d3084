/**
 * The JSON reports the App links from its comments' footers: each published report, within the
 * organization's `reveal` (`report/report-reveal.ts`), kept as a file under the data folder and
 * served at `<TANDEM_PUBLIC_URL>/tandem/reports/<token>.json`.
 *
 * The token is 128 random bits, so a report is readable by whoever can read the comment that
 * links it and guessable by nobody else (the App's URL is public; GitHub's access control does not
 * reach it). Without `TANDEM_PUBLIC_URL` the App does not know its own address and links nothing.
 * Only the newest `keep` reports are kept.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Report } from '../../core/report.schema.ts';
import { jsonReportText } from '../../report/json-report.ts';
import { revealReport } from '../../report/report-reveal.ts';
import type { Reveal } from '../../report/report-view.ts';

export const REPORTS_ROUTE = '/tandem/reports/';
const TOKEN = /^[A-Za-z0-9_-]{22}$/;

export class PublishedReports {
  constructor(
    private readonly dir: string,
    private readonly publicUrl: string | undefined,
    private readonly keep = 2_000,
  ) {}

  /** Saves the report within `reveal`; returns its public URL, or undefined without one. */
  save(report: Report, reveal: Reveal): string | undefined {
    if (!this.publicUrl) return undefined;
    mkdirSync(this.dir, { recursive: true });
    const token = randomBytes(16).toString('base64url');
    writeFileSync(join(this.dir, `${token}.json`), jsonReportText(revealReport(report, reveal)), {
      mode: 0o600,
    });
    this.prune();
    return new URL(`${REPORTS_ROUTE}${token}.json`, this.publicUrl).href;
  }

  /** The saved JSON for a request path, or undefined (unknown, malformed or pruned). */
  read(path: string): string | undefined {
    if (!path.startsWith(REPORTS_ROUTE) || !path.endsWith('.json')) return undefined;
    const token = path.slice(REPORTS_ROUTE.length, -'.json'.length);
    // The token is the whole file name: nothing else of the folder (or beyond it) is reachable.
    if (!TOKEN.test(token)) return undefined;
    try {
      return readFileSync(join(this.dir, `${token}.json`), 'utf8');
    } catch {
      return undefined;
    }
  }

  private prune(): void {
    const files = readdirSync(this.dir).filter((f) => f.endsWith('.json'));
    if (files.length <= this.keep) return;
    const byAge = files.map((f) => ({ f, t: statSync(join(this.dir, f)).mtimeMs })).sort((a, b) => a.t - b.t);
    for (const { f } of byAge.slice(0, files.length - this.keep)) rmSync(join(this.dir, f), { force: true });
  }
}
