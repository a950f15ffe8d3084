/**
 * Ranges as npm reads them (through `semver`), and the Python and Go forms `semver` cannot read:
 * one table of ranges and their lower bounds (its first rows are ranges a hand-written reader got
 * wrong), then what makes two versions one release.
 */
import { describe, expect, it } from 'vitest';
import { lowerBound, normalVersion, sameVersion } from '../../src/core/version-ranges.ts';

/** [what the row shows, the range, its lower bound (undefined: none)]. */
const LOWER_BOUNDS: Array<[string, string, string | undefined]> = [
  // npm ranges, read as npm reads them.
  ['an exclusive bound starts after it', '>1.2.3', '1.2.4'],
  ['an exclusive bound starts after it', '> 1.2.3', '1.2.4'],
  ['an exclusive bound starts after it', '>1', '2.0.0'],
  ['a union starts at its lowest alternative', '^1.2.3 || ^0.9', '0.9.0'],
  ['a union starts at its lowest alternative', '>=1.2.3 <2 || ^3', '1.2.3'],
  ['a range that admits every version has no lower bound', '*', undefined],
  ['a range that admits every version has no lower bound', '<2 || >=3.1', undefined],
  ['a range that admits every version has no lower bound', '<=2.0.0', undefined],
  ['a range that admits every version has no lower bound', 'latest', undefined],
  ['an X-range', '1.x', '1.0.0'],
  ['a tilde range', '~1', '1.0.0'],
  ['a hyphen range', '1.2.3 - 2', '1.2.3'],
  ['a prerelease', '^2.0.0-rc.1', '2.0.0-rc.1'],
  ['a caret range', '^2.1.0', '2.1.0'],
  ['bounds in any order', '<3 >=2.0.1', '2.0.1'],
  ['a workspace range', 'workspace:~1.4', '1.4.0'],
  ['a workspace range', 'workspace:^1.0.0', '1.0.0'],
  ['build metadata is no part of a release', '^1.2.3+build.5', '1.2.3'],
  ['a path is no version', 'file:../lib', undefined],
  ['a path is no version', '../lib', undefined],
  // The forms semver cannot read. Python specifiers: the first clause that bounds from below.
  ['a Python compatible release', '~=2.1', '2.1.0'],
  ['Python clauses', '>=2.1,<3', '2.1.0'],
  ['Python clauses', '<3, !=2.2, >=2.0.1', '2.0.1'],
  ['a Python wildcard', '==2.1.*', '2.1.0'],
  ['a four-part version is kept whole', '1.2.3.4', '1.2.3.4'],
  ['a Go module version', 'v1.4.0', '1.4.0'],
];

describe('lowerBound', () => {
  it.each(LOWER_BOUNDS)('%s: %j → %j', (_what, range, bound) => {
    expect(lowerBound(range)).toBe(bound);
  });
});

describe('one release, however written', () => {
  it('build metadata is no part of a release; a prerelease is not the release', () => {
    expect(sameVersion('1.2.3+build.5', 'v1.2.3')).toBe(true);
    expect(sameVersion('2.0.0-rc.1', '2.0.0')).toBe(false);
  });

  it('four-part versions are kept whole', () => {
    expect(normalVersion('1.2.3.4')).toBe('1.2.3.4');
    expect(sameVersion('1.2.3.4', '1.2.3')).toBe(false);
  });

  it('Go module versions, +incompatible included', () => {
    expect(sameVersion('v2.0.0+incompatible', '2.0.0')).toBe(true);
  });
});
