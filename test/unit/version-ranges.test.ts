/**
 * Ranges as npm reads them (through `semver`), and the Python and Go forms `semver` cannot read:
 * one table of ranges and their lower bounds (its first rows are ranges a hand-written reader got
 * wrong), then what makes two versions one release.
 */
import { describe, expect, it } from 'vitest';
import { lowerBound, normalVersion, sameVersion } from '../../src/core/version-ranges.ts';

/** What each group of rows shows → { range: its lower bound (undefined: none) }. */
const LOWER_BOUNDS: Record<string, Record<string, string | undefined>> = {
  // npm ranges, read as npm reads them; the first rows are ranges a hand-written reader got wrong.
  'an exclusive bound starts after it': { '>1.2.3': '1.2.4', '> 1.2.3': '1.2.4', '>1': '2.0.0' },
  'a union starts at its lowest alternative': { '^1.2.3 || ^0.9': '0.9.0', '>=1.2.3 <2 || ^3': '1.2.3' },
  'a range that admits every version has no lower bound': {
    '*': undefined,
    '<2 || >=3.1': undefined,
    '<=2.0.0': undefined,
    latest: undefined,
  },
  'X-ranges, tilde, hyphen ranges and prereleases': { '1.x': '1.0.0', '~1': '1.0.0', '1.2.3 - 2': '1.2.3' },
  'a prerelease, a caret range, bounds in any order': {
    '^2.0.0-rc.1': '2.0.0-rc.1',
    '^2.1.0': '2.1.0',
    '<3 >=2.0.1': '2.0.1',
  },
  'workspace ranges': { 'workspace:~1.4': '1.4.0', 'workspace:^1.0.0': '1.0.0' },
  'build metadata is no part of a release': { '^1.2.3+build.5': '1.2.3' },
  'a path is no version': { 'file:../lib': undefined, '../lib': undefined },
  // The forms semver cannot read. Python specifiers: the first clause that bounds from below.
  'Python specifiers': {
    '~=2.1': '2.1.0',
    '>=2.1,<3': '2.1.0',
    '<3, !=2.2, >=2.0.1': '2.0.1',
    '==2.1.*': '2.1.0',
  },
  'four-part versions are kept whole; Go module versions': { '1.2.3.4': '1.2.3.4', 'v1.4.0': '1.4.0' },
};

describe('lowerBound', () => {
  it.each(
    Object.entries(LOWER_BOUNDS).flatMap(([what, rows]) =>
      Object.entries(rows).map(([range, bound]) => [what, range, bound] as const),
    ),
  )('%s: %j → %j', (_what, range, bound) => {
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
