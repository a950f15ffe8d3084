/**
 * The pure phases of `tandem init` (src/cli/run/init.ts): what the templates are rendered with,
 * from what was detected, and the closing lines with the remaining steps.
 */
import { describe, expect, it } from 'vitest';
import { closingLines, setupData } from '../../src/cli/run/init.ts';
import { detectEcosystem } from '../../src/core/ecosystem.ts';

const flags = { evaluator: 'acme/evaluator', dir: 'out', suite: 'main', checkouts: '.', force: false };
const detected = (repo: string, entries: string[]) => ({
  repo,
  name: repo.split('/')[1]!,
  checkout: `/src/${repo.split('/')[1]}`,
  detection: detectEcosystem({ entries }),
  base: 'main',
  head: 'main',
});

describe('tandem init phases', () => {
  it('setupData: one group per repository in its language; Node where nothing was detected', () => {
    const detections = [
      detected('acme/api', ['package.json', 'package-lock.json']),
      detected('acme/tools', ['README.md']),
    ];
    const data = setupData('acme', ['acme/api', 'acme/tools'], flags, detections);
    expect(data.groups.map((g) => [g.name, g.language, g.prepare !== undefined])).toEqual([
      ['api', 'node', true],
      ['tools', 'node', false],
    ]);
    expect(data.anyPrepare).toBe(true);
    expect(data.image).toBe('tandem/sandbox:node20');
  });

  it('setupData: a Go repository beside a Python one picks one image and says why', () => {
    const detections = [detected('acme/svc', ['go.mod']), detected('acme/ml', ['pyproject.toml'])];
    const data = setupData('acme', ['acme/svc', 'acme/ml'], flags, detections);
    expect(data.groups.map((g) => g.language)).toEqual(['go', 'python']);
    expect(data.imageNote).toBeTruthy();
  });

  it('closingLines: what was written where, then the remaining steps (App install, workflow secrets)', () => {
    const detections = [detected('acme/api', ['package.json', 'package-lock.json'])];
    const data = setupData('acme', ['acme/api'], flags, detections);
    const text = closingLines({
      layout: {
        orgRepo: 'out/acme/.github',
        evalRepo: 'out/acme/evaluator',
        suiteDir: 'out/acme/evaluator/suites/main',
        caseName: 'out/try-main.yml',
      },
      flags,
      org: 'acme',
      repos: ['acme/api'],
      data,
      detections,
      count: 9,
    });
    expect(text).toContain('wrote 9 files:');
    expect(text).toContain('  out/acme/.github/.github/tandem.yml  → commit to acme/.github');
    expect(text).toMatch(/3\. install the Tandem App on acme\/api, acme\/evaluator and acme\/\.github/);
    expect(text).toContain('secret TANDEM_APP_PRIVATE_KEY');
    expect(text.endsWith('\n')).toBe(true);
  });
});
