import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PREPARE_EGRESS,
  egressAllowed,
  forbiddenAddress,
  prepareNetworkSchema,
} from '../../src/core/prepare-egress.ts';

describe('prepare egress', () => {
  it('allows the listed hosts on 443 and 80, a wildcard only for subdomains, host:port exactly', () => {
    const allow = ['registry.npmjs.org', '*.example.com', 'mirror.local:4873'];
    expect(egressAllowed(allow, 'registry.npmjs.org', 443)).toBe(true);
    expect(egressAllowed(allow, 'REGISTRY.npmjs.org.', 80)).toBe(true);
    expect(egressAllowed(allow, 'registry.npmjs.org', 22)).toBe(false);
    expect(egressAllowed(allow, 'evil-registry.npmjs.org', 443)).toBe(false);
    expect(egressAllowed(allow, 'a.example.com', 443)).toBe(true);
    expect(egressAllowed(allow, 'example.com', 443)).toBe(false);
    expect(egressAllowed(allow, 'notexample.com', 443)).toBe(false);
    expect(egressAllowed(allow, 'mirror.local', 4873)).toBe(true);
    expect(egressAllowed(allow, 'mirror.local', 443)).toBe(false);
    expect(egressAllowed([], 'registry.npmjs.org', 443)).toBe(false);
  });

  it('never reaches loopback, unspecified or link-local addresses', () => {
    for (const a of [
      '127.0.0.1',
      '127.1.2.3',
      '0.0.0.0',
      '169.254.169.254',
      '::1',
      '::',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
    ])
      expect(forbiddenAddress(a), a).toBe(true);
    for (const a of ['104.16.1.1', '10.0.0.5', '2606:4700::1111']) expect(forbiddenAddress(a), a).toBe(false);
  });

  it('defaults to the public registries and names a bad entry', () => {
    expect(prepareNetworkSchema.parse({}).allow).toEqual([...DEFAULT_PREPARE_EGRESS]);
    const bad = prepareNetworkSchema.safeParse({ allow: ['http://registry.npmjs.org/'] });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(['allow', 0]);
  });
});
