/**
 * The README and docs/ point only inside the repository: a clone has everything they link to.
 * Links are read with markdown-it (the parser core uses), so code spans and examples don't count.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import MarkdownIt, { type Token } from 'markdown-it';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DOCS = [
  'README.md',
  ...readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

function links(file: string): string[] {
  const out: string[] = [];
  const walk = (tokens: Token[]) => {
    for (const t of tokens) {
      if (t.type === 'link_open' || t.type === 'image') {
        const target = t.attrGet(t.type === 'image' ? 'src' : 'href');
        if (target) out.push(String(target));
      }
      if (t.children) walk(t.children);
    }
  };
  walk(new MarkdownIt().parse(readFileSync(path.join(ROOT, file), 'utf8'), {}));
  return out;
}

describe('documentation links', () => {
  it('has the design document', () => {
    expect(DOCS).toContain('docs/design.md');
    expect(links('README.md')).toContain('docs/design.md');
  });

  it.each(DOCS)('%s links only to files inside the repository that exist', (file) => {
    for (const link of links(file)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(link) || link.startsWith('#')) continue;
      const target = path.resolve(path.dirname(path.join(ROOT, file)), decodeURI(link.split('#')[0]!));
      expect(path.relative(ROOT, target).startsWith('..'), `${file} → ${link} leaves the repository`).toBe(
        false,
      );
      expect(existsSync(target), `${file} → ${link} does not exist`).toBe(true);
    }
  });
});
