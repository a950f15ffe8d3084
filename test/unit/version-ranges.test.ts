/**
 * Ranges as npm reads them (through `semver`), and the Python and Go forms `semver` cannot read.
 * The first block lists ranges a hand-written reader got wrong.
 */
import { describe, expect, it } from 'vitest';
import { lowerBound, normalVersion, sameVersion } from '../../src/core/version-ranges.ts';

describe('npm ranges, read as npm reads them', () => {
  it('an exclusive bound starts after it', () => {
    expect(lowerBound('>1.2.3')).toBe('1.2.4');
    expect(lowerBound('> 1.2.3')).toBe('1.2.4');
    expect(lowerBound('>1')).toBe('2.0.0');
  });

  it('a union starts at its lowest alternative', () => {
    expect(lowerBound('^1.2.3 || ^0.9')).toBe('0.9.0');
    expect(lowerBound('>=1.2.3 <2 || ^3')).toBe('1.2.3');
  });

  it('a range that admits every version has no lower bound', () => {
    expect(lowerBound('*')).toBeUndefined();
    expect(lowerBound('<2 || >=3.1')).toBeUndefined();
    expect(lowerBound('<=2.0.0')).toBeUndefined();
    expect(lowerBound('latest')).toBeUndefined();
  });

  it('X-ranges, tilde, hyphen ranges and prereleases', () => {
    expect(lowerBound('1.x')).toBe('1.0.0');
    expect(lowerBound('~1')).toBe('1.0.0');
    expect(lowerBound('1.2.3 - 2')).toBe('1.2.3');
    expect(lowerBound('^2.0.0-rc.1')).toBe('2.0.0-rc.1');
    expect(lowerBound('workspace:~1.4')).toBe('1.4.0');
  });

  it('build metadata is no part of a release', () => {
    expect(sameVersion('1.2.3+build.5', 'v1.2.3')).toBe(true);
    expect(lowerBound('^1.2.3+build.5')).toBe('1.2.3');
    expect(sameVersion('2.0.0-rc.1', '2.0.0')).toBe(false);
  });
});

describe('the forms semver cannot read', () => {
  it('Python specifiers: the first clause that bounds from below', () => {
    expect(lowerBound('~=2.1')).toBe('2.1.0');
    expect(lowerBound('>=2.1,<3')).toBe('2.1.0');
    expect(lowerBound('<3, !=2.2, >=2.0.1')).toBe('2.0.1');
    expect(lowerBound('==2.1.*')).toBe('2.1.0');
  });

  it('four-part versions are kept whole', () => {
    expect(normalVersion('1.2.3.4')).toBe('1.2.3.4');
    expect(lowerBound('1.2.3.4')).toBe('1.2.3.4');
    expect(sameVersion('1.2.3.4', '1.2.3')).toBe(false);
  });

  it('Go module versions, +incompatible included', () => {
    expect(lowerBound('v1.4.0')).toBe('1.4.0');
    expect(sameVersion('v2.0.0+incompatible', '2.0.0')).toBe(true);
  });
});
