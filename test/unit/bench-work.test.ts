/**
 * The phases of `tandem bench run` that decide before anything runs (bench-work.ts) and the
 * diagnosis of a patch that does not apply: which predictions, in what order, which shard gets
 * which, what a rerun evaluates again, what a model did not submit.
 */
import { describe, expect, it } from 'vitest';
import {
  missingPredictions,
  modelsOf,
  pendingWork,
  planBenchWork,
  shardShare,
  submittedIds,
} from '../../src/bench/bench-work.ts';
import { notAppliedDiagnosis, testedRepos } from '../../src/bench/evaluate-prediction.ts';
import type { LoadedInstance } from '../../src/bench/instances-file.ts';
import { parseInstance } from '../../src/bench/instances-file.ts';
import type { BenchPrediction } from '../../src/core/bench-prediction.schema.ts';
import { InputError } from '../../src/core/errors.ts';
import { suiteSchema } from '../../src/core/suite.schema.ts';

const suite = suiteSchema.parse({
  name: 's',
  image: 'tandem/sandbox:node20',
  tests: [
    { name: 'api', repo: 'acme/api', run: 'true', results: { format: 'tap', path: 'a.tap' } },
    { name: 'web', repo: 'acme/web', run: 'true', results: { format: 'tap', path: 'w.tap' } },
    { name: 'api-2', repo: 'acme/api', run: 'true', results: { format: 'tap', path: 'b.tap' } },
  ],
});

function loaded(id: string): LoadedInstance {
  const instance = parseInstance(
    {
      instance_id: id,
      problem_statement: 'p',
      repos: [
        { repo: 'acme/api', url: '/r/api.git', base_commit: 'abc', patch: 'x' },
        { repo: 'acme/web', url: '/r/web.git', base_commit: 'def', patch: 'y' },
      ],
      suite: 'suite.yml',
    },
    'instances.jsonl:1',
  );
  return { instance, suite, suiteDir: '/s', source: 'instances.jsonl:1' };
}

const instances = [loaded('i-2'), loaded('i-1'), loaded('i-3')];
const prediction = (model: string, id: string): BenchPrediction => ({
  instance_id: id,
  model_name_or_path: model,
  model_patches: { 'acme/api': 'diff' },
});

describe('planBenchWork', () => {
  it('pairs each prediction with its instance and patches, ordered by model then instance', () => {
    const work = planBenchWork(
      [prediction('m-b', 'i-2'), prediction('m-a', 'i-3'), prediction('m-a', 'i-1')],
      instances,
      'preds.jsonl',
    );
    expect(work.map((w) => `${w.prediction.model_name_or_path} ${w.loaded.instance.instance_id}`)).toEqual([
      'm-a i-1',
      'm-a i-3',
      'm-b i-2',
    ]);
    expect(work[0]!.patches).toEqual({
      patchIsNone: false,
      patchExists: true,
      patches: { 'acme/api': 'diff' },
    });
  });

  it('refuses two models that would share a run folder, naming the file and the field', () => {
    const err = (() => {
      try {
        planBenchWork([prediction('org/m', 'i-1'), prediction('org__m', 'i-1')], instances, 'preds.jsonl');
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).message).toMatch(/^preds\.jsonl: models "org\/m" and "org__m" would share/);
    expect((err as InputError).field).toBe('model_name_or_path');
  });
});

describe('shardShare', () => {
  const items = ['a', 'b', 'c', 'd', 'e'];
  it('gives shard i of n every n-th item from the i-th, and every item without a shard', () => {
    expect(shardShare(items, { index: 1, count: 2 })).toEqual(['a', 'c', 'e']);
    expect(shardShare(items, { index: 2, count: 2 })).toEqual(['b', 'd']);
    expect(shardShare(items, undefined)).toEqual(items);
  });
});

describe('pendingWork', () => {
  const work = ['new', 'ok', 'err', 'new-2'];
  const recorded = [undefined, 'resolved', 'error', undefined];
  it('evaluates the unrecorded and the errored again, counting the errored as retried', () => {
    expect(pendingWork(work, recorded, true)).toEqual({ todo: ['new', 'err', 'new-2'], retried: 1 });
  });
  it('keeps errored predictions when retrying errors is off', () => {
    expect(pendingWork(work, recorded, false)).toEqual({ todo: ['new', 'new-2'], retried: 0 });
  });
});

describe('models and missing predictions', () => {
  const work = planBenchWork(
    [prediction('m-b', 'i-2'), prediction('m-a', 'i-3'), prediction('m-a', 'i-1'), prediction('m-c', 'i-1')],
    [...instances],
    'preds.jsonl',
  );
  it('lists each model once, sorted, with the instances it submitted', () => {
    expect(modelsOf(work)).toEqual(['m-a', 'm-b', 'm-c']);
    expect(submittedIds(work, 'm-a')).toEqual(['i-1', 'i-3']);
  });
  it('names, per model, the instances it has no prediction for, in file order', () => {
    expect(missingPredictions(work, ['i-2', 'i-1', 'i-3'])).toEqual([
      { model: 'm-a', ids: ['i-2'] },
      { model: 'm-b', ids: ['i-1', 'i-3'] },
      { model: 'm-c', ids: ['i-2', 'i-3'] },
    ]);
    expect(missingPredictions(work.slice(0, 2), ['i-1', 'i-3'])).toEqual([]);
  });
});

describe('one prediction', () => {
  it('diagnoses a patch that does not apply as wrong in each repository it failed in', () => {
    expect(
      notAppliedDiagnosis([
        { repo: 'acme/api', changed: true, applied: false },
        { repo: 'acme/web', changed: true, applied: true },
      ]),
    ).toEqual({
      labels: [{ kind: 'wrong-in-repo', repo: 'acme/api' }],
      swaps: [{ repo: 'acme/api', outcome: 'not-applied' }],
    });
  });
  it("names the repositories the suite's groups test, each once", () => {
    expect(testedRepos(instances[0]!)).toEqual(['acme/api', 'acme/web']);
  });
});
