import { describe, expect, it } from 'vitest';
import { DEFAULT_EGRESS_LIMITS, egressLimitNote, egressLimitsSchema } from '../../src/core/egress-limits.ts';
import { prepareNetworkSchema } from '../../src/core/prepare-egress.ts';
import { suiteSchema } from '../../src/core/suite.schema.ts';
import { validate } from '../../src/core/zod-issues.ts';

describe('egress limits', () => {
  it('fills every default, in the network and in a suite that says nothing', () => {
    expect(egressLimitsSchema.parse({})).toEqual(DEFAULT_EGRESS_LIMITS);
    expect(prepareNetworkSchema.parse({}).limits).toEqual(DEFAULT_EGRESS_LIMITS);
    const suite = suiteSchema.parse({
      name: 's',
      image: 'i',
      prepare: { 'acme/app': { run: 'true' } },
      tests: [{ name: 't', run: 'true', results: { format: 'tap', path: 't.tap' } }],
    });
    expect(suite.prepare?.['acme/app']?.network.limits).toEqual(DEFAULT_EGRESS_LIMITS);
  });

  it('lets a suite lower a limit and refuses raising one, naming the field', () => {
    expect(prepareNetworkSchema.parse({ limits: { connections: 8 } }).limits.connections).toBe(8);
    const up = prepareNetworkSchema.safeParse({ limits: { connections: 65 } });
    expect(up.success).toBe(false);
    expect(up.error?.issues[0]?.path).toEqual(['limits', 'connections']);
    expect(up.error?.issues[0]?.message).toMatch(/connections may only lower the default \(64\)/);
    expect(egressLimitsSchema.safeParse({ idle_seconds: 0 }).success).toBe(false);
    const suite = {
      name: 's',
      image: 'i',
      prepare: { 'acme/app': { run: 'true', network: { limits: { bytes: 5 * 1024 ** 3 } } } },
      tests: [{ name: 't', run: 'true', results: { format: 'tap', path: 't.tap' } }],
    };
    expect(() => validate(suiteSchema, suite, 'suite.yml')).toThrow(
      /suite\.yml: field "prepare\.acme\/app\.network\.limits\.bytes": bytes may only lower the default/,
    );
    expect(egressLimitsSchema.safeParse({ sockets: 1 }).success).toBe(false);
  });

  it('names only the limits that were hit', () => {
    expect(egressLimitNote(DEFAULT_EGRESS_LIMITS, {})).toBe('');
    expect(egressLimitNote(DEFAULT_EGRESS_LIMITS, { connections: 3, header_seconds: 2, bytes: 0 })).toBe(
      "tandem: prepare's egress limit reached: 64 connections at once (3 refused or closed); " +
        '10s to send request headers (2 refused or closed)',
    );
    expect(egressLimitNote(DEFAULT_EGRESS_LIMITS, { descriptors: 5 })).toMatch(
      /descriptor reserve.*5 refused/,
    );
  });
});
