import { describe, expect, it } from 'vitest';
import { suiteFor, validateOrgConfig } from '../../src/core/org-config.schema.ts';
import { parseOrgConfig } from '../../src/github/org-config.ts';

const valid = `
evaluator: acme/tandem-suites
suites:
  - name: checkout
    repos: [acme/schema, acme/api, acme/web]
    path: suites/checkout/suite.yml
matrix: auto
`;

describe('org config', () => {
  it('accepts the documented shape and fills defaults', () => {
    const r = parseOrgConfig(valid);
    expect(r.kind).toBe('ok');
    if (r.kind !== 'ok') return;
    expect(r.config.reveal).toBe('counts');
    expect(r.config.limits).toEqual({ members: 8, repos: 8 });
    expect(r.config.group_by_branch).toBe(false);
    expect(suiteFor(r.config, 'ACME/Api')?.name).toBe('checkout');
    expect(suiteFor(r.config, 'acme/other')).toBeUndefined();
  });

  it("accepts executor: workers (tandem worker processes sharing the App's PostgreSQL)", () => {
    const r = parseOrgConfig(`${valid}executor: workers\n`);
    expect(r.kind === 'ok' && r.config.executor).toBe('workers');
    expect(parseOrgConfig(`${valid}executor: cluster\n`)).toMatchObject({
      kind: 'invalid',
      field: 'executor',
    });
  });

  it('names the offending field', () => {
    expect(
      validateOrgConfig({ evaluator: 'acme/s', suites: [{ name: 'x', repos: ['nope'], path: 's.yml' }] }),
    ).toMatchObject({
      ok: false,
      field: 'suites[0].repos[0]',
    });
    expect(parseOrgConfig(`${valid}\nmatrix: sometimes\n`.replace('matrix: auto\n', ''))).toMatchObject({
      kind: 'invalid',
      field: 'matrix',
    });
    expect(parseOrgConfig('evaluator: acme/s\nsuites: []\n')).toMatchObject({
      kind: 'invalid',
      field: 'suites',
    });
    expect(parseOrgConfig(`${valid}\nextra: 1\n`)).toMatchObject({ kind: 'invalid', field: '(root)' });
  });

  it('refuses suite paths outside the evaluator repository and broken YAML', () => {
    expect(
      validateOrgConfig({
        evaluator: 'acme/s',
        suites: [{ name: 'x', repos: ['acme/a'], path: '../x.yml' }],
      }),
    ).toMatchObject({ ok: false, field: 'suites[0].path' });
    expect(parseOrgConfig('evaluator: [unclosed')).toMatchObject({ kind: 'invalid', field: '(root)' });
  });
});
