import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InputError } from '../../src/core/errors.ts';
import { suiteSchema } from '../../src/core/suite.schema.ts';
import { describeIssues, flagLabel, inputErrorOf, validate } from '../../src/core/zod-issues.ts';

const target = z.union([
  z.object({ repo: z.string(), head: z.string() }),
  z.object({ repo: z.string(), patch: z.string() }),
]);
const caseLike = z.object({ name: z.string(), targets: z.array(target) });

describe('describeIssues', () => {
  it('leads with the first field and lists a few more', () => {
    const r = z
      .object({ a: z.string(), b: z.number(), c: z.boolean(), d: z.string(), e: z.string(), f: z.string() })
      .safeParse({});
    const s = describeIssues(r.error!);
    expect(s.field).toBe('a');
    const lines = s.text.split('\n');
    expect(lines[0]).toMatch(/^field "a": /);
    expect(lines.slice(1, 5).map((l) => l.trim().split(':')[0])).toEqual([
      'field "b"',
      'field "c"',
      'field "d"',
      'field "e"',
    ]);
    expect(lines[5]).toBe('  (and 1 more)');
    expect(s.text).toBe(`field "a": ${s.detail}`);
  });

  it('explains a failed union by its closest alternative', () => {
    const r = caseLike.safeParse({ name: 'x', targets: [{ repo: 5, head: 'main' }] });
    const s = describeIssues(r.error!);
    expect(s.field).toBe('targets[0].repo');
    expect(s.text).toMatch(/^field "targets\[0\]\.repo": /);
  });

  it('says a tie by the union itself', () => {
    const r = caseLike.safeParse({ name: 'x', targets: [{ repo: 'acme/api' }] });
    expect(describeIssues(r.error!).field).toBe('targets[0]');
  });

  it('takes a prefix and a label for other places', () => {
    const r = z.object({ shard: z.string() }).safeParse({ shard: 1 });
    expect(describeIssues(r.error!, { prefix: 'suite' }).field).toBe('suite.shard');
    expect(describeIssues(r.error!, { label: (p) => `input "${String(p[0])}"` }).text).toMatch(
      /^input "shard": /,
    );
  });
});

describe('validate and inputErrorOf', () => {
  it('names a command flag the way it is typed', () => {
    const flags = z.object({ maxRepos: z.number().int().min(1) });
    const parsed = flags.safeParse({ maxRepos: 0 });
    expect(parsed.success).toBe(false);
    const err = inputErrorOf(parsed.error!, '', { label: flagLabel });
    expect(err.message).toMatch(/^option --max-repos: /);
  });

  it('leaves the prefix out when the label names the place', () => {
    const r = z.object({ jobs: z.number() }).safeParse({ jobs: 'x' });
    const err = inputErrorOf(r.error!, '', { label: (p) => `option --${String(p[0])}` });
    expect(err.message).toMatch(/^option --jobs: /);
    expect(err.field).toBe('jobs');
  });

  it('returns the parsed value', () => {
    expect(validate(z.object({ n: z.coerce.number() }), { n: '2' }, 'x.yml')).toEqual({ n: 2 });
  });

  it('one bad suite file gives one message, whoever reads it', () => {
    const bad = {
      name: 's',
      image: 'node:20',
      tests: [{ name: 'unit', run: 42, results: { format: 'tap' } }],
    };
    let thrown: unknown;
    try {
      validate(suiteSchema, bad, 'suites/s.yml');
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(InputError);
    const err = thrown as InputError;
    expect(err.file).toBe('suites/s.yml');
    expect(err.message.startsWith(`suites/s.yml: field "${err.field}": `)).toBe(true);
    // The message is built from the issues alone: the same input gives the same text.
    expect(inputErrorOf(suiteSchema.safeParse(bad).error!, 'suites/s.yml').message).toBe(err.message);
  });
});
