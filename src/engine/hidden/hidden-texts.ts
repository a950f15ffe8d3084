/**
 * The suite's hidden files as texts for the leak filter (core/leak-filter.ts): each file's path
 * as the suite names it, its absolute path, and its content. Folders are walked; binary and very
 * large files add only their paths (their bytes are not lines a report would quote).
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { type HiddenText, LeakFilter } from '../../core/leak-filter.ts';
import type { Suite } from '../../core/suite.schema.ts';

const MAX_TEXT_BYTES = 4 * 1024 * 1024;

async function hiddenTexts(suite: Suite, suiteDir: string): Promise<HiddenText[]> {
  const out: HiddenText[] = [{ path: path.resolve(suiteDir), content: '' }];
  const walk = async (abs: string, label: string): Promise<void> => {
    const st = await stat(abs).catch(() => undefined);
    if (!st) return;
    out.push({ path: abs, content: '' });
    if (st.isDirectory()) {
      for (const e of await readdir(abs)) await walk(path.join(abs, e), `${label}/${e}`);
      return;
    }
    const bytes = st.size <= MAX_TEXT_BYTES ? await readFile(abs) : Buffer.alloc(0);
    const content = bytes.includes(0) ? '' : bytes.toString('utf8');
    out.push({ path: label, content });
  };
  for (const g of suite.tests) for (const f of g.files) await walk(path.resolve(suiteDir, f), f);
  return out;
}

/** The leak filter for a suite: what every outgoing text of its evaluations passes through. */
export async function suiteLeakFilter(suite: Suite, suiteDir: string): Promise<LeakFilter> {
  return new LeakFilter(await hiddenTexts(suite, suiteDir));
}
