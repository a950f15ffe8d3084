import { describe, expect, it } from 'vitest';
import { fileKind, languageOf } from '../../src/mine/file-kinds.ts';
import { interfaceChanges } from '../../src/mine/interface-diff.ts';
import { type RepoChangeSummary, screen } from '../../src/mine/screening.ts';

const limits = { maxFiles: 10, maxLines: 100 };
const side = (
  repo: string,
  files: Array<[string, ReturnType<typeof fileKind>, number?]>,
): RepoChangeSummary => ({
  repo,
  files: files.map(([path, kind, n]) => ({ path, kind, added: n ?? 1, removed: 0 })),
});

describe('fileKind', () => {
  it('classifies tests by the default globs of each ecosystem', () => {
    for (const f of [
      'test/a.js',
      'pkg/tests/x.py',
      'src/__tests__/a.tsx',
      'x/y_test.go',
      'test_z.py',
      'src/a.test.ts',
      'a.spec.js',
    ])
      expect(fileKind(f, ['x']), f).toBe('test');
    expect(fileKind('src/testing.ts', ['x'])).toBe('code');
  });

  it('honours --test-glob instead of the defaults', () => {
    expect(fileKind('checks/a.ts', ['x'], ['checks/**'])).toBe('test');
    expect(fileKind('test/a.ts', ['x'], ['checks/**'])).toBe('code');
  });

  it('tells docs, lockfiles and version-only manifest changes from code', () => {
    expect(fileKind('README.md', ['x'])).toBe('docs');
    expect(fileKind('CHANGELOG', ['x'])).toBe('docs');
    expect(fileKind('package-lock.json', ['x'])).toBe('lockfile');
    expect(fileKind('package.json', ['  "version": "1.2.0",', '  "version": "1.3.0",'])).toBe('version');
    expect(fileKind('package.json', ['    "@acme/api": "^2.1.0"'])).toBe('version');
    expect(fileKind('package.json', ['    "build": "tsc -p ."'])).toBe('code');
    expect(languageOf('src/a.tsx')).toBe('TypeScript');
    expect(languageOf('main.go')).toBe('Go');
  });
});

describe('screen', () => {
  it('keeps two substantive sides', () => {
    expect(
      screen([side('acme/api', [['src/a.ts', 'code']]), side('acme/web', [['src/b.ts', 'code']])], limits),
    ).toBeUndefined();
  });

  it('screens out a docs-only side, naming it and its files', () => {
    const r = screen(
      [
        side('acme/api', [
          ['src/a.ts', 'code'],
          ['test/a.test.ts', 'test'],
        ]),
        side('acme/docs', [
          ['guide.md', 'docs'],
          ['CHANGELOG.md', 'docs'],
        ]),
      ],
      limits,
    );
    expect(r?.code).toBe('not-substantive');
    expect(r?.message).toContain('acme/docs only touches docs or changelogs (guide.md, CHANGELOG.md)');
  });

  it('screens out a side with tests only, and sets that are too large', () => {
    expect(
      screen([side('acme/api', [['src/a.ts', 'code']]), side('acme/web', [['test/x.js', 'test']])], limits)
        ?.message,
    ).toContain('acme/web changes tests only');
    expect(
      screen([side('a/b', [['x.ts', 'code', 90]]), side('a/c', [['y.ts', 'code', 20]])], limits)?.message,
    ).toBe('110 lines changed (more than --max-lines 100)');
  });
});

describe('interfaceChanges', () => {
  it('lists exported declarations added or changed, with signatures and no bodies', async () => {
    const base =
      'export function total(items: number[]): number { return 0; }\nexport const RATE = 1;\nfunction internal() {}\n';
    const head = [
      'export function total(items: number[], currency: string): number { return 1; }',
      'export const RATE = 1;',
      'export interface Money { amount: number; currency: string }',
      'export class Cart { private secret = 1; add(item: string): void { } }',
      'export const format = (m: Money): string => String(m.amount);',
      'function internal() { return 2; }',
    ].join('\n');
    const entries = await interfaceChanges('src/money.ts', base, head);
    expect(entries).toEqual([
      {
        file: 'src/money.ts',
        name: 'total',
        kind: 'Function',
        signature: 'export function total(items: number[], currency: string): number',
        change: 'changed',
      },
      {
        file: 'src/money.ts',
        name: 'Money',
        kind: 'Interface',
        signature: 'export interface Money { amount: number; currency: string }',
        change: 'added',
      },
      {
        file: 'src/money.ts',
        name: 'Cart',
        kind: 'Class',
        signature: 'export class Cart { add(item: string): void }',
        change: 'added',
      },
      {
        file: 'src/money.ts',
        name: 'format',
        kind: 'Variable',
        signature: 'const format = (m: Money): string =>',
        change: 'added',
      },
    ]);
  });
});
