/** Action inputs: modes, defaults, the event fallback, and errors that name the input. */
import { describe, expect, it } from 'vitest';
import { type InputSource, readInputs } from '../../src/action/inputs.ts';
import { parseContextRef } from '../../src/core/context-ref.ts';
import { InputError } from '../../src/core/errors.ts';

/** Inputs by name, as `core.getInput` gives them (trimmed, '' when absent), and an event payload. */
const env = (inputs: Record<string, string>, eventPayload: unknown = {}): InputSource => ({
  input: (name) => (inputs[name] ?? '').trim(),
  eventPayload,
});

function errorOf(inputs: Record<string, string>): string {
  try {
    readInputs(env(inputs));
  } catch (err) {
    expect(err).toBeInstanceOf(InputError);
    return (err as Error).message;
  }
  throw new Error('expected an InputError');
}

describe('readInputs', () => {
  it('evaluates a case with defaults; a shard gets a distinct report name', () => {
    expect(readInputs(env({ case: 'cases/a.yml' }))).toEqual({
      mode: 'evaluate',
      source: { kind: 'case', file: 'cases/a.yml' },
      matrix: 'auto',
      reruns: 0,
      reveal: 'names',
      report: 'tandem-report.json',
    });
    expect(readInputs(env({ case: 'a.yml', reveal: 'messages' }))).toMatchObject({ reveal: 'messages' });
    expect(errorOf({ case: 'a.yml', reveal: 'all' })).toBe(
      'input "reveal": expected "counts", "names" or "messages"',
    );
    const sharded = readInputs(env({ case: 'a.yml', shard: '2/3', matrix: 'full', reruns: '2', token: 't' }));
    expect(sharded).toMatchObject({
      mode: 'evaluate',
      shard: { index: 2, count: 3 },
      matrix: 'full',
      reruns: 2,
      token: 't',
      report: 'tandem-partial-2-of-3.json',
    });
  });

  it('parses pull-requests as lines, words or URLs, dropping duplicates', () => {
    const inputs = readInputs(
      env({
        'pull-requests': 'acme/api#12\n acme/web#7, https://github.com/acme/schema/pull/3\nacme/api#12',
        suite: 'suites/s.yml',
        token: 't',
      }),
    );
    expect(inputs).toMatchObject({
      mode: 'evaluate',
      suite: 'suites/s.yml',
      source: {
        kind: 'pull-requests',
        pulls: [
          { owner: 'acme', repo: 'api', number: 12 },
          { owner: 'acme', repo: 'web', number: 7 },
          { owner: 'acme', repo: 'schema', number: 3 },
        ],
      },
    });
  });

  it('parses context as repositories with an optional ref, next to pull-requests only', () => {
    const inputs = readInputs(
      env({
        'pull-requests': 'acme/api#12',
        context: 'acme/web\nacme/docs@release/2.x, acme/lib@0123abc',
        suite: 's.yml',
        token: 't',
      }),
    );
    expect(inputs).toMatchObject({
      source: {
        kind: 'pull-requests',
        context: [
          { owner: 'acme', repo: 'web' },
          { owner: 'acme', repo: 'docs', ref: 'release/2.x' },
          { owner: 'acme', repo: 'lib', ref: '0123abc' },
        ],
      },
    });
    expect(readInputs(env({ 'pull-requests': 'acme/api#1', suite: 's', token: 't' }))).toMatchObject({
      source: { kind: 'pull-requests', context: [] },
    });
    // A ref that git would read as an option is refused.
    expect(parseContextRef('acme/web@--upload-pack=x')).toBeUndefined();
    expect(errorOf({ 'pull-requests': 'acme/api#1', suite: 's', context: 'acme/web#3' })).toBe(
      'input "context": expected lines of "owner/repo" or "owner/repo@ref", got "acme/web#3"',
    );
    expect(errorOf({ 'pull-requests': 'acme/api#1', suite: 's', context: 'acme/web acme/Web@dev' })).toBe(
      'input "context": acme/Web is listed more than once',
    );
    expect(errorOf({ case: 'a.yml', context: 'acme/web' })).toMatch(
      /^input "context": the case file names its own context/,
    );
    expect(errorOf({ merge: '*.json', context: 'acme/web' })).toMatch(
      /^input "context": cannot be combined with "merge"/,
    );
  });

  it('plan and merge modes', () => {
    expect(readInputs(env({ case: 'a.yml', plan: '4' }))).toEqual({
      mode: 'plan',
      source: { kind: 'case', file: 'a.yml' },
      matrix: 'auto',
      shards: 4,
    });
    expect(readInputs(env({ merge: 'partials/*.json\nmore/*.json' }))).toEqual({
      mode: 'merge',
      patterns: ['partials/*.json', 'more/*.json'],
      report: 'tandem-report.json',
      reveal: 'names',
    });
  });

  it('names the input in every error', () => {
    for (const shard of ['1-3', '0/3', '4/3']) {
      expect(errorOf({ case: 'a.yml', shard })).toBe(
        'input "shard": expected "i/n" with 1 <= i <= n (share i of n, e.g. "2/3")',
      );
    }
    expect(errorOf({ case: 'a.yml', matrix: 'some' })).toBe(
      'input "matrix": expected "full", "leave-one-out" or "auto"',
    );
    expect(errorOf({ case: 'a.yml', reruns: 'many' })).toBe(
      'input "reruns": expected a whole number from 0 to 20',
    );
    expect(errorOf({ case: 'a.yml', reruns: '21' })).toBe(
      'input "reruns": expected a whole number from 0 to 20',
    );
    expect(errorOf({ 'pull-requests': 'acme/api#1' })).toMatch(
      /^input "suite": required with "pull-requests"/,
    );
    expect(errorOf({ 'pull-requests': 'acme api', suite: 's.yml' })).toBe(
      'input "pull-requests": expected lines of "owner/repo#N", got "acme"',
    );
    expect(errorOf({ case: 'a.yml', 'pull-requests': 'acme/api#1', suite: 's' })).toMatch(
      /^input "pull-requests": give either/,
    );
    expect(errorOf({ case: 'a.yml', suite: 's.yml' })).toMatch(
      /^input "suite": the case file names its own suite/,
    );
    expect(errorOf({ merge: '*.json', shard: '1/2' })).toMatch(
      /^input "shard": cannot be combined with "merge"/,
    );
    expect(errorOf({ case: 'a.yml', plan: '2', shard: '1/2' })).toMatch(
      /^input "shard": cannot be combined with "plan"/,
    );
    expect(errorOf({})).toMatch(/^input "case": give "case"/);
  });

  it('takes the linked change from the event when no input names one', () => {
    const dispatch = { client_payload: { pull_requests: ['acme/api#1', 'acme/web#2'] } };
    const manual = { inputs: { 'pull-requests': 'acme/api#5 acme/web#6' } };
    const pulls = (payload: unknown) => {
      const i = readInputs(env({ suite: 's.yml', token: 't' }, payload));
      return i.mode === 'evaluate' && i.source.kind === 'pull-requests'
        ? i.source.pulls.map((p) => p.number)
        : [];
    };
    expect(pulls(dispatch)).toEqual([1, 2]);
    expect(pulls(manual)).toEqual([5, 6]);
    // The context travels with the pull requests: the App's dispatch input, a script's payload.
    const context = (payload: unknown, inputs: Record<string, string> = {}) => {
      const i = readInputs(env({ suite: 's.yml', token: 't', ...inputs }, payload));
      return i.mode === 'evaluate' && i.source.kind === 'pull-requests'
        ? i.source.context.map((c) => `${c.repo}@${c.ref ?? ''}`)
        : [];
    };
    const app = { inputs: { 'pull-requests': 'acme/api#5', context: 'acme/web@main acme/docs' } };
    const script = { client_payload: { pull_requests: ['acme/api#1'], context: ['acme/web@v2'] } };
    expect(context(app)).toEqual(['web@main', 'docs@']);
    expect(context(script)).toEqual(['web@v2']);
    expect(context(manual)).toEqual([]);
    expect(context(app, { context: 'acme/lib' })).toEqual(['lib@']);
    // PRs named by the step do not borrow the event's context.
    expect(context(app, { 'pull-requests': 'acme/api#9' })).toEqual([]);
    // An explicit case wins over the event; an event of another shape names nothing.
    expect(readInputs(env({ case: 'a.yml' }, dispatch))).toMatchObject({ source: { kind: 'case' } });
    expect(() => readInputs(env({ suite: 's.yml' }, { client_payload: { pull_requests: 7 } }))).toThrow(
      /^input "case": give "case"/,
    );
  });

  it('needs a token to read pull requests; an unevaluated expression default counts as not given', () => {
    // `@github/local-action` hands action.yml's `${{ github.token }}` default over verbatim.
    const unevaluated = ['$', '{{ github.token }}'].join('');
    expect(errorOf({ 'pull-requests': 'acme/api#1', suite: 's', token: unevaluated })).toMatch(
      /^input "token": required with "pull-requests"/,
    );
    // Planning reads nothing remote: no token needed.
    expect(readInputs(env({ 'pull-requests': 'acme/api#1', suite: 's', plan: '2' }))).toMatchObject({
      mode: 'plan',
    });
  });
});
