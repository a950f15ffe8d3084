import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keyFilesBytes, largestFirst } from '../../src/engine/prepare/prepare-order.ts';

describe('largestFirst', () => {
  it('orders by decreasing estimate', async () => {
    const sizes: Record<string, number> = { vk: 1200, espree: 1900, eslint: 4600 };
    expect(await largestFirst(['vk', 'espree', 'eslint'], async (x) => sizes[x]!)).toEqual([
      'eslint',
      'espree',
      'vk',
    ]);
  });

  it('keeps the given order among equal estimates (no key files)', async () => {
    expect(await largestFirst(['a', 'b', 'c', 'd'], async (x) => (x === 'c' ? 5 : 0))).toEqual([
      'c',
      'a',
      'b',
      'd',
    ]);
  });
});

describe('keyFilesBytes', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'tandem-prepare-order-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('sums the regular key files and skips missing ones', async () => {
    await writeFile(path.join(dir, 'package.json'), 'x'.repeat(100));
    await mkdir(path.join(dir, 'sub'));
    await writeFile(path.join(dir, 'sub', 'package-lock.json'), 'y'.repeat(50));
    expect(await keyFilesBytes(dir, ['package.json', 'sub/package-lock.json', 'absent.lock'])).toBe(150);
  });

  it('never measures through a link or outside the state', async () => {
    const outside = await mkdtemp(path.join(os.tmpdir(), 'tandem-prepare-order-out-'));
    try {
      await writeFile(path.join(outside, 'big'), 'z'.repeat(1000));
      await symlink(path.join(outside, 'big'), path.join(dir, 'package.json'));
      await symlink(outside, path.join(dir, 'linked'));
      expect(await keyFilesBytes(dir, ['package.json', 'linked/big', '../big'])).toBe(0);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });
});
