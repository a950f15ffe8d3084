/**
 * Which groups are isolated (core/suite.schema.ts `groupIsolated`), when a configuration needs the
 * snapshot, and which paths a restore keeps in place (engine/docker/workspace-snapshot.ts).
 */
import { describe, expect, it } from 'vitest';
import { groupIsolated, suiteSchema } from '../../src/core/suite.schema.ts';
import { keptPaths, needsSnapshot } from '../../src/engine/docker/workspace-snapshot.ts';

const group = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  run: 'true',
  results: { format: 'tap', path: `${name}.tap` },
  ...extra,
});

describe('groupIsolated', () => {
  it('isolates a group that names no repository (runs no PR code) unless it says otherwise', () => {
    const suite = suiteSchema.parse({
      name: 's',
      image: 'i',
      tests: [
        group('checker'),
        group('api', { repo: 'acme/api' }),
        group('reads-outputs', { isolate: false }),
        group('base-api', { repo: 'acme/api', isolate: true }),
      ],
    });
    expect(suite.tests.map((g) => [g.name, groupIsolated(g)])).toEqual([
      ['checker', true],
      ['api', false],
      ['reads-outputs', false],
      ['base-api', true],
    ]);
  });

  it('refuses an isolate that is not a boolean, naming the field', () => {
    const r = suiteSchema.safeParse({ name: 's', image: 'i', tests: [group('g', { isolate: 'yes' })] });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(['tests', 0, 'isolate']);
  });
});

describe('needsSnapshot', () => {
  const step = (isolate?: boolean) => ({
    name: 'g',
    run: 'true',
    timeoutSec: 1,
    ...(isolate ? { isolate } : {}),
  });
  it('only when an isolated group follows another group', () => {
    expect(needsSnapshot({ tests: [step(true)] })).toBe(false);
    expect(needsSnapshot({ tests: [step(true), step(false)] })).toBe(false);
    expect(needsSnapshot({ tests: [step(false), step(true)] })).toBe(true);
  });
});

describe('keptPaths', () => {
  it('skips mounts, keeps the folders holding them and the wired checkouts', () => {
    const kept = keptPaths({
      readonlyMounts: [
        { hostPath: '/h/a', workspacePath: 'api/node_modules' },
        { hostPath: '/h/b', workspacePath: 'web/packages/x/node_modules' },
      ],
      links: [{ source: 'schema/packages/core', target: 'api/node_modules/@acme/core' }],
    });
    expect(kept.mounted.sort()).toEqual([
      '/tandem/workspace/api/node_modules',
      '/tandem/workspace/api/node_modules/@acme/core',
      '/tandem/workspace/web/packages/x/node_modules',
    ]);
    expect(kept.holders.sort()).toEqual([
      '/tandem/workspace/api',
      '/tandem/workspace/api/node_modules',
      '/tandem/workspace/api/node_modules/@acme',
      '/tandem/workspace/schema',
      '/tandem/workspace/schema/packages',
      '/tandem/workspace/schema/packages/core',
      '/tandem/workspace/web',
      '/tandem/workspace/web/packages',
      '/tandem/workspace/web/packages/x',
    ]);
  });
});
