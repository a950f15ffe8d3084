import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/core/errors.ts';
import { mineGitOptionsSchema, parseMineFlags, parseRepoSpec } from '../../src/mine/mine-options.ts';
import { loadSuiteTemplate } from '../../src/mine/suite-template.ts';

describe('parseRepoSpec', () => {
  it('splits owner/name=URL[@ref], leaving user parts of URLs alone', () => {
    expect(parseRepoSpec('acme/api=https://git.example.com/acme/api.git@release/1.x')).toEqual({
      repo: 'acme/api',
      url: 'https://git.example.com/acme/api.git',
      ref: 'release/1.x',
    });
    expect(parseRepoSpec('acme/api=https://tok@git.example.com/acme/api.git')).toEqual({
      repo: 'acme/api',
      url: 'https://tok@git.example.com/acme/api.git',
    });
    expect(parseRepoSpec('acme/api=git@github.com:acme/api.git')).toEqual({
      repo: 'acme/api',
      url: 'git@github.com:acme/api.git',
    });
    expect(parseRepoSpec('acme/api=/srv/git/api.git@main')).toEqual({
      repo: 'acme/api',
      url: '/srv/git/api.git',
      ref: 'main',
    });
    expect(parseRepoSpec('api=/srv/git/api.git')).toBeUndefined();
    expect(parseRepoSpec('acme/api')).toBeUndefined();
  });
});

describe('parseMineFlags', () => {
  it('applies defaults and converts dates and windows', () => {
    const flags = parseMineFlags(mineGitOptionsSchema, {
      repo: ['a/b=/x', 'a/c=/y'],
      since: '2024-01-01',
      window: '36h',
    });
    expect(flags).toMatchObject({
      maxRepos: 5,
      maxFiles: 40,
      maxLines: 1500,
      out: 'candidates.jsonl',
      window: 36 * 3_600_000,
    });
    expect(flags.since.toISOString()).toBe('2024-01-01T00:00:00.000Z');
  });

  it('names each bad flag', () => {
    const err = (() => {
      try {
        parseMineFlags(mineGitOptionsSchema, {
          repo: ['a/b=/x'],
          since: '2024-01-01',
          maxRepos: '0',
          window: 'soon',
        });
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(InputError);
    const message = (err as Error).message;
    expect(message).toContain('--repo: give at least two repositories');
    expect(message).toContain('--max-repos: expected a whole number ≥ 1');
    expect(message).toContain('--window: expected a duration like 14d');
  });
});

describe('loadSuiteTemplate', () => {
  it('fills repository names in, and says which field of the filled suite is wrong', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'tandem-mine-tpl-'));
    const good = path.join(dir, 'good.yaml');
    await writeFile(
      good,
      'name: "{{instance_id}}"\nimage: img\ntests:\n{{#each repos}}\n  - name: {{name}}\n    repo: {{repo}}\n    run: make -C {{name}} test\n    results: { format: tap, path: {{name}}.tap }\n{{/each}}\n',
    );
    const suite = (await loadSuiteTemplate(good))({ instanceId: 'acme__a+b-1', repos: ['acme/a', 'acme/b'] });
    expect(suite.name).toBe('acme__a+b-1');
    expect(suite.tests.map((t) => [t.name, t.repo, t.run])).toEqual([
      ['a', 'acme/a', 'make -C a test'],
      ['b', 'acme/b', 'make -C b test'],
    ]);
    const bad = path.join(dir, 'bad.yaml');
    await writeFile(bad, 'name: x\nimage: img\ntests: []\n');
    const render = await loadSuiteTemplate(bad);
    expect(() => render({ instanceId: 'i', repos: ['acme/a'] })).toThrow(
      /field "tests": a suite needs at least one test group/,
    );
    await expect(loadSuiteTemplate(path.join(dir, 'missing.yaml'))).rejects.toThrow(/no such file/);
  });
});
