/**
 * The code of the real npm case's three repositories, written for the bench (perf/README.md,
 * "The real npm case"): a producer → middle → consumer chain shaped like a JavaScript toolchain,
 * and one linked change, optional chaining (`a?.b`, `f?.(x)`):
 *   acme-visitor-keys (the child keys of each syntax node) gains `ChainExpression`;
 *   acme-parser (tokenizer, parser, traversal over the keys) parses `?.` into a `ChainExpression`;
 *   acme-linter (rules over the parser's tree) gains the rule `no-optional-chaining`.
 * Each head needs the heads below it, so only the three together pass the hidden tests. Files
 * are `{ path: text }`; `head` holds the files the PR changes.
 */

import { hiddenKeysTest, hiddenLinterTest, hiddenParserTest } from './real-case-hidden.ts';

export type Files = Record<string, string>;

const KEYS_BASE = `'use strict';
/** The child keys of each node type, in source order: what a traversal visits. */
const KEYS = {
  Program: ['body'],
  ExpressionStatement: ['expression'],
  AssignmentExpression: ['left', 'right'],
  BinaryExpression: ['left', 'right'],
  CallExpression: ['callee', 'arguments'],
  MemberExpression: ['object', 'property'],
  Identifier: [],
  Literal: [],
};

function keysOf(type) {
  const keys = KEYS[type];
  if (!keys) throw new Error('unknown node type: ' + type);
  return keys;
}

/** The keys with a plugin's additions, each type's keys without repeats. */
function unionWith(extra) {
  const out = { ...KEYS };
  for (const [type, keys] of Object.entries(extra)) out[type] = [...new Set([...(out[type] || []), ...keys])];
  return Object.freeze(out);
}

module.exports = { KEYS: Object.freeze(KEYS), keysOf, unionWith };
`;

const TOKENIZE_BASE = `'use strict';
const PUNCT = ['(', ')', '.', ',', '+', '-', '*', '/', '=', ';'];

function tokenize(src) {
  const out = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (/\\s/.test(c)) {
      i++;
      continue;
    }
    if (/[A-Za-z_$]/.test(c)) {
      let j = i;
      while (j < src.length && /[\\w$]/.test(src[j])) j++;
      out.push({ type: 'name', value: src.slice(i, j), start: i });
      i = j;
      continue;
    }
    if (/[0-9]/.test(c)) {
      let j = i;
      while (j < src.length && /[0-9.]/.test(src[j])) j++;
      out.push({ type: 'num', value: Number(src.slice(i, j)), start: i });
      i = j;
      continue;
    }
    /* optional-chain token */
    if (PUNCT.includes(c)) {
      out.push({ type: 'punct', value: c, start: i });
      i++;
      continue;
    }
    throw new SyntaxError("Unexpected character '" + c + "' at " + i);
  }
  out.push({ type: 'eof', start: i });
  return out;
}

module.exports = { tokenize };
`;

const OPTIONAL_TOKEN = `// \`?.\` not followed by a digit (\`a?.5:b\` is a conditional).
    if (c === '?' && src[i + 1] === '.' && !/[0-9]/.test(src[i + 2] || '')) {
      out.push({ type: 'punct', value: '?.', start: i });
      i += 2;
      continue;
    }`;

const PARSE_BASE = `'use strict';
const { tokenize } = require('./tokenize');

function parse(src) {
  const toks = tokenize(src);
  let p = 0;
  const peek = () => toks[p];
  const next = () => toks[p++];
  const is = (v) => toks[p].type === 'punct' && toks[p].value === v;
  const expect = (v) => {
    if (!is(v)) throw new SyntaxError("Expected '" + v + "' at " + toks[p].start);
    return next();
  };
  const name = () => {
    const t = next();
    if (t.type !== 'name') throw new SyntaxError('Expected a name at ' + t.start);
    return { type: 'Identifier', name: t.value };
  };
  function primary() {
    const t = next();
    if (t.type === 'name') return { type: 'Identifier', name: t.value };
    if (t.type === 'num') return { type: 'Literal', value: t.value };
    if (t.type === 'punct' && t.value === '(') {
      const e = assignment();
      expect(')');
      return e;
    }
    throw new SyntaxError('Unexpected token at ' + t.start);
  }
  function args() {
    const list = [];
    if (!is(')')) {
      list.push(assignment());
      while (is(',')) {
        next();
        list.push(assignment());
      }
    }
    expect(')');
    return list;
  }
  function postfix() {
    let node = primary();
    let chained = false;
    for (;;) {
      if (is('.')) {
        next();
        node = { type: 'MemberExpression', object: node, property: name(), optional: false };
      } else if (is('(')) {
        next();
        node = { type: 'CallExpression', callee: node, arguments: args(), optional: false };
      } /* optional-chain member */ else break;
    }
    return chained ? { type: 'ChainExpression', expression: node } : node;
  }
  const binary = (ops, sub) => () => {
    let left = sub();
    while (ops.some((o) => is(o))) {
      const operator = next().value;
      left = { type: 'BinaryExpression', operator, left, right: sub() };
    }
    return left;
  };
  const additive = binary(['+', '-'], binary(['*', '/'], postfix));
  function assignment() {
    const left = additive();
    if (!is('=')) return left;
    next();
    return { type: 'AssignmentExpression', operator: '=', left, right: assignment() };
  }
  const body = [];
  while (peek().type !== 'eof') {
    if (is(';')) {
      next();
      continue;
    }
    body.push({ type: 'ExpressionStatement', expression: assignment() });
    if (!is(';') && peek().type !== 'eof') throw new SyntaxError('Unexpected token at ' + peek().start);
  }
  return { type: 'Program', body };
}

module.exports = { parse };
`;

const OPTIONAL_MEMBER = `else if (is('?.')) {
        next();
        chained = true;
        if (is('(')) {
          next();
          node = { type: 'CallExpression', callee: node, arguments: args(), optional: true };
        } else node = { type: 'MemberExpression', object: node, property: name(), optional: true };
      } else break;`;

const TRAVERSE = `'use strict';
const { keysOf } = require('acme-visitor-keys');

/** Visits every node depth first, children in the order the visitor keys give. */
function traverse(node, visit, parent = null) {
  visit(node, parent);
  for (const key of keysOf(node.type)) {
    const child = node[key];
    if (Array.isArray(child)) for (const c of child) traverse(c, visit, node);
    else if (child) traverse(child, visit, node);
  }
}

module.exports = { traverse };
`;

const PARSER_INDEX = `'use strict';
const { tokenize } = require('./tokenize');
const { parse } = require('./parse');
const { traverse } = require('./traverse');
module.exports = { tokenize, parse, traverse };
`;

const RULES_BASE = `'use strict';
/** Each rule: (node, parent, report) for every node of the tree. */
const depth = (n) => (n.type === 'MemberExpression' ? 1 + depth(n.object) : 0);

module.exports = {
  'no-magic-numbers': (node, _parent, report) => {
    if (node.type === 'Literal' && node.value !== 0 && node.value !== 1) report('No magic number: ' + node.value);
  },
  'max-member-depth': (node, parent, report) => {
    const outermost = !parent || parent.type !== 'MemberExpression' || parent.property === node;
    if (node.type === 'MemberExpression' && outermost && depth(node) > 3)
      report('Member chain too deep (' + depth(node) + ')');
  },
  'no-assign-to-call': (node, _parent, report) => {
    if (node.type === 'AssignmentExpression' && node.left.type === 'CallExpression') report('Invalid assignment target');
  },
};
`;

const NEW_RULE = `  'no-optional-chaining': (node, _parent, report) => {
    if (node.type === 'ChainExpression') report('Optional chaining is not allowed');
  },
};
`;

const LINTER_INDEX = `'use strict';
const { parse, traverse } = require('acme-parser');
const rules = require('./rules');

/** Lints one source with the configured rules: \`{ rules: { name: 'error' | 'warn' | 'off' } }\`. */
function lint(source, config = { rules: {} }) {
  const active = Object.entries(config.rules)
    .filter(([, level]) => level !== 'off')
    .map(([name, level]) => {
      const rule = rules[name];
      if (!rule) throw new Error("Definition for rule '" + name + "' was not found");
      return { name, severity: level === 'error' ? 2 : 1, rule };
    });
  const messages = [];
  traverse(parse(source), (node, parent) => {
    for (const a of active) a.rule(node, parent, (message) => messages.push({ ruleId: a.name, severity: a.severity, message }));
  });
  return messages;
}

module.exports = { lint, rules: Object.keys(rules) };
`;

const smoke = (what: string, line: string) => `'use strict';
const assert = require('assert');
const lib = require('../../lib/index.js');

describe('${what} smoke', () => {
  it('loads', () => ${line});
});
`;

export interface RepoSources {
  base: Files;
  head: Files;
  /** Under the evaluator's hidden/<name>/: copied into tests/ of the configuration's checkout. */
  hidden: Files;
}

export function keysSources(): RepoSources {
  return {
    base: {
      'lib/index.js': KEYS_BASE,
      'tests/lib/smoke.js': smoke('keys', "assert.ok(lib.keysOf('Program'))"),
    },
    head: {
      'lib/index.js': KEYS_BASE.replace(
        '  Literal: [],\n',
        "  Literal: [],\n  ChainExpression: ['expression'],\n",
      ),
    },
    hidden: { 'tests/lib/keys.js': hiddenKeysTest() },
  };
}

export function parserSources(): RepoSources {
  return {
    base: {
      'lib/index.js': PARSER_INDEX,
      'lib/tokenize.js': TOKENIZE_BASE,
      'lib/parse.js': PARSE_BASE,
      'lib/traverse.js': TRAVERSE,
      'tests/lib/smoke.js': smoke('parser', "assert.strictEqual(lib.parse('a').type, 'Program')"),
    },
    head: {
      'lib/tokenize.js': TOKENIZE_BASE.replace('/* optional-chain token */', OPTIONAL_TOKEN),
      'lib/parse.js': PARSE_BASE.replace('/* optional-chain member */ else break;', OPTIONAL_MEMBER),
    },
    hidden: { 'tests/lib/parse.js': hiddenParserTest() },
  };
}

export function linterSources(): RepoSources {
  return {
    base: {
      'lib/index.js': LINTER_INDEX,
      'lib/rules.js': RULES_BASE,
      'tests/lib/smoke.js': smoke('linter', "assert.deepStrictEqual(lib.lint('a'), [])"),
    },
    head: { 'lib/rules.js': RULES_BASE.replace(/};\n$/, NEW_RULE) },
    hidden: { 'tests/lib/lint.js': hiddenLinterTest() },
  };
}
