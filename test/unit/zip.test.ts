/**
 * The artifact reader: real archives made by Info-ZIP's `zip` (stored and deflated entries,
 * folders), refused with a reason when they are not archives or declare more than the cap.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { unzip } from '../../src/github/zip.ts';

const dir = mkdtempSync(join(tmpdir(), 'tandem-zip-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function archive(name: string, files: Record<string, string>, flags: string[] = []): Buffer {
  const src = join(dir, `${name}-src`);
  mkdirSync(join(src, 'sub'), { recursive: true });
  for (const [f, text] of Object.entries(files)) writeFileSync(join(src, f), text);
  execFileSync('zip', ['-q', '-r', ...flags, join(dir, `${name}.zip`), '.'], { cwd: src });
  return readFileSync(join(dir, `${name}.zip`));
}

describe('unzip', () => {
  it('reads stored and deflated entries and skips folders', () => {
    const big = 'x'.repeat(50_000);
    const deflated = unzip(archive('deflated', { 'report.json': '{"a":1}', 'sub/big.txt': big }));
    expect([...deflated.keys()].sort()).toEqual(
      ['./report.json', './sub/big.txt'].map((n) => n.slice(2)).sort(),
    );
    expect(deflated.get('sub/big.txt')!.toString()).toBe(big);
    const stored = unzip(archive('stored', { 'r.json': '{}' }, ['-0']));
    expect(stored.get('r.json')!.toString()).toBe('{}');
  });

  it('refuses what is not an archive, and an archive declaring more than the cap, before inflating it', () => {
    expect(() => unzip(Buffer.from('not a zip at all'))).toThrow(/not a readable zip archive/);
    const zip = archive('capped', { 'a.txt': 'y'.repeat(10_000) });
    expect(() => unzip(zip, 1_000)).toThrow('more than 1000 bytes uncompressed');
  });
});
