import { describe, expect, it } from 'vitest';
import { disambiguate, groupOfTestId, testId } from '../../src/core/test-id.ts';

describe('testId', () => {
  it('joins group, classname and name with ::', () => {
    expect(testId('api', 'Users', 'creates a user')).toBe('api::Users::creates a user');
  });

  it('folds whitespace so reformatted output keeps the id', () => {
    expect(testId(' api ', 'Users\n  suite', 'creates\t a   user ')).toBe('api::Users suite::creates a user');
  });

  it('escapes the separator inside parts so the group splits back unambiguously', () => {
    const id = testId('api', 'pkg::Users', 'a::b');
    expect(id).toBe('api::pkg: :Users::a: :b');
    expect(groupOfTestId(id)).toBe('api');
  });

  it('allows empty classname', () => {
    expect(testId('g', '', 'name')).toBe('g::::name');
    expect(groupOfTestId('g::::name')).toBe('g');
  });
});

describe('groupOfTestId', () => {
  it('is the part before the first separator', () => {
    expect(groupOfTestId('web::Form::renders')).toBe('web');
  });

  it('is the whole id when there is no separator', () => {
    expect(groupOfTestId('loose')).toBe('loose');
  });

  it('round-trips any group name the suite schema allows', () => {
    for (const g of ['a', 'api-tests', 'x_1.2', 'G']) expect(groupOfTestId(testId(g, 'C', 'n'))).toBe(g);
  });
});

describe('disambiguate', () => {
  it('numbers repeats from the second one, keeping input order', () => {
    expect(disambiguate(['a::b::c', 'a::b::d', 'a::b::c', 'a::b::c'])).toEqual([
      'a::b::c',
      'a::b::d',
      'a::b::c #2',
      'a::b::c #3',
    ]);
  });

  it('leaves distinct ids alone', () => {
    expect(disambiguate(['x', 'y'])).toEqual(['x', 'y']);
    expect(disambiguate([])).toEqual([]);
  });
});
