/**
 * The evaluator's hidden tests of the real npm case (real-case-sources.ts), written for the bench:
 * per repository, cases that pass at base and must keep passing (P2P) and cases of the linked
 * change (optional chaining) that fail at base (F2P). Mocha, run from tests/lib/ of the
 * configuration's private copy of each checkout.
 */

const PRELUDE = (what: string) => `'use strict';
// Evaluator-owned (hidden) tests of ${what}.
const assert = require('assert');
const lib = require('../../lib/index.js');
`;

export function hiddenKeysTest(): string {
  return `${PRELUDE('acme-visitor-keys')}
const EXPECTED = ${JSON.stringify({
    Program: ['body'],
    ExpressionStatement: ['expression'],
    AssignmentExpression: ['left', 'right'],
    BinaryExpression: ['left', 'right'],
    CallExpression: ['callee', 'arguments'],
    MemberExpression: ['object', 'property'],
    Identifier: [],
    Literal: [],
  })};
describe('visitor keys', () => {
  for (const [type, keys] of Object.entries(EXPECTED)) {
    it(type + ' keeps its keys', () => assert.deepStrictEqual(lib.keysOf(type), keys));
    it(type + ' keeps its keys in a union', () => assert.deepStrictEqual(lib.unionWith({})[type], keys));
  }
  it('an unknown type is refused', () => assert.throws(() => lib.keysOf('Nope'), /unknown node type/));
  it('the keys are frozen', () => assert.ok(Object.isFrozen(lib.KEYS)));
  it('ChainExpression visits its expression', () => assert.deepStrictEqual(lib.keysOf('ChainExpression'), ['expression']));
  it('a union keeps ChainExpression', () =>
    assert.deepStrictEqual(lib.unionWith({ ChainExpression: ['extra'] }).ChainExpression, ['expression', 'extra']));
});
`;
}

export function hiddenParserTest(): string {
  return `${PRELUDE('acme-parser')}
const chain = (depth, op) => ['a', ...Array.from({ length: depth }, (_, i) => 'p' + i)].join(op);
const count = (src) => {
  const seen = {};
  lib.traverse(lib.parse(src), (n) => (seen[n.type] = (seen[n.type] || 0) + 1));
  return seen;
};
describe('parser: what base parses', () => {
  for (let d = 1; d <= 40; d++) {
    it('member chain of depth ' + d, () => assert.strictEqual(count(chain(d, '.')).MemberExpression, d));
  }
  for (let n = 0; n <= 30; n++) {
    const args = Array.from({ length: n }, (_, i) => 'x' + i).join(', ');
    it('call with ' + n + ' arguments', () => assert.strictEqual(lib.parse('f(' + args + ')').body[0].expression.arguments.length, n));
  }
  it('precedence', () => assert.strictEqual(lib.parse('1 + 2 * 3').body[0].expression.right.operator, '*'));
  it('assignment', () => assert.strictEqual(lib.parse('a.b = c(1)').body[0].expression.type, 'AssignmentExpression'));
  it('statements', () => assert.strictEqual(lib.parse('a; b; c').body.length, 3));
  it('a stray character is a syntax error', () => assert.throws(() => lib.parse('a # b'), SyntaxError));
  it('a?.5 holds no chain token', () => assert.throws(() => lib.tokenize('a?.5'), /Unexpected character '\\?'/));
});
describe('parser: optional chaining', () => {
  it('a?.b is a chain', () => {
    const e = lib.parse('a?.b').body[0].expression;
    assert.strictEqual(e.type, 'ChainExpression');
    assert.strictEqual(e.expression.optional, true);
  });
  it('f?.(x) is an optional call', () => assert.strictEqual(lib.parse('f?.(x)').body[0].expression.expression.optional, true));
  for (let d = 1; d <= 30; d++) {
    it('optional chain of depth ' + d + ' is walked', () => {
      const seen = count(chain(d, '?.'));
      assert.strictEqual(seen.ChainExpression, 1);
      assert.strictEqual(seen.MemberExpression, d);
    });
  }
});
`;
}

export function hiddenLinterTest(): string {
  return `${PRELUDE('acme-linter')}
const only = (rule) => ({ rules: { [rule]: 'error' } });
describe('linter: the rules base has', () => {
  for (let n = 0; n <= 60; n++) {
    it('x = ' + n, () => assert.strictEqual(lib.lint('x = ' + n, only('no-magic-numbers')).length, n > 1 ? 1 : 0));
  }
  for (let d = 1; d <= 12; d++) {
    const src = ['a', ...Array.from({ length: d }, (_, i) => 'p' + i)].join('.');
    it('member depth ' + d, () => assert.strictEqual(lib.lint(src, only('max-member-depth')).length, d > 3 ? 1 : 0));
  }
  it('assignment to a call', () => assert.strictEqual(lib.lint('f() = 1', only('no-assign-to-call'))[0].message, 'Invalid assignment target'));
  it('warn is severity 1', () => assert.strictEqual(lib.lint('x = 5', { rules: { 'no-magic-numbers': 'warn' } })[0].severity, 1));
  it('an unknown rule is refused', () => assert.throws(() => lib.lint('a', only('nope')), /was not found/));
});
describe('linter: no-optional-chaining', () => {
  it('is a rule', () => assert.ok(lib.rules.includes('no-optional-chaining')));
  for (let d = 1; d <= 20; d++) {
    const src = ['a', ...Array.from({ length: d }, (_, i) => 'p' + i)].join('?.');
    it('reports a chain of depth ' + d + ' once', () => {
      const out = lib.lint(src, only('no-optional-chaining'));
      assert.deepStrictEqual(out.map((m) => m.message), ['Optional chaining is not allowed']);
    });
  }
  it('leaves plain members alone', () => assert.deepStrictEqual(lib.lint('a.b.c', only('no-optional-chaining')), []));
  it('reports an optional call', () => assert.strictEqual(lib.lint('f?.(1)', only('no-optional-chaining')).length, 1));
});
`;
}
