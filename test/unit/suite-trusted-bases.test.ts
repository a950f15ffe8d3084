import { describe, expect, it } from 'vitest';
import { suiteSchema } from '../../src/core/suite.schema.ts';

const suite = (trusted: unknown) => ({
  name: 's',
  image: 'img',
  prepare: { 'acme/app': { run: 'npm ci', key_files: ['package.json'], trusted_bases: trusted } },
  tests: [{ name: 'g', run: 'true', results: { format: 'tap', path: 'g.tap' } }],
});

describe('prepare.<repo>.trusted_bases', () => {
  it('is absent by default (the default branch is trusted) and takes branch names', () => {
    const parsed = suiteSchema.parse(suite(undefined));
    expect(parsed.prepare['acme/app']?.trusted_bases).toBeUndefined();
    expect(suiteSchema.parse(suite(['main', 'release/2.x'])).prepare['acme/app']?.trusted_bases).toEqual([
      'main',
      'release/2.x',
    ]);
    expect(suiteSchema.parse(suite([])).prepare['acme/app']?.trusted_bases).toEqual([]);
  });

  it('refuses what is no branch name, naming the field', () => {
    for (const bad of ['--upload-pack=x', 'a..b', 'has space', '']) {
      const r = suiteSchema.safeParse(suite([bad]));
      expect(r.success).toBe(false);
      expect(r.error?.issues[0]?.path).toEqual(['prepare', 'acme/app', 'trusted_bases', 0]);
    }
  });
});
