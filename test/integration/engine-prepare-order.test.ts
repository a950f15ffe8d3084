/**
 * Base-state prepares take the run slots largest install first (src/engine/prepare-order.ts),
 * through the whole engine in Docker: with one slot the prepares run one at a time, so the order
 * they finish in is the order they started in.
 */
import { describe, expect, it } from 'vitest';
import { dockerSuite } from '../helpers/docker-suite.ts';
import { SANDBOX_IMAGE, shellCase, shellGroup, tapScript } from '../helpers/example-cases.ts';

const docker = dockerSuite('engine-prepare-order');

/** A package.json of about `bytes` bytes: the install-size estimate the engine reads. */
const manifest = (bytes: number) => `${JSON.stringify({ description: 'x'.repeat(bytes) })}\n`;

describe('prepare order', () => {
  it('starts the base prepare with the largest key files first, before any head', async () => {
    const c = await shellCase({
      name: 'prepare-order',
      repos: [
        { name: 'small', base: { 'package.json': manifest(10) }, head: { STATE: 'head\n' } },
        { name: 'medium', base: { 'package.json': manifest(500) }, head: { STATE: 'head\n' } },
        { name: 'large', base: { 'package.json': manifest(5000) }, head: { STATE: 'head\n' } },
      ],
      suite: {
        name: 'prepare-order-suite',
        image: SANDBOX_IMAGE,
        prepare: Object.fromEntries(
          ['small', 'medium', 'large'].map((n) => [
            `acme/${n}`,
            { run: 'mkdir -p node_modules', key_files: ['package.json'] },
          ]),
        ),
        tests: [shellGroup('checks')],
      },
      hidden: { 'hidden/checks.sh': tapScript('checks.tap', [{ name: 'ok', cmd: 'true' }]) },
    });
    docker.track(c.root);
    const done: string[] = [];
    const report = await docker.evaluate(c.input, {
      jobs: 1,
      matrix: 'leave-one-out',
      onEvent: (e) => {
        if (e.type === 'prepare-done') done.push(e.repo);
      },
    });
    expect(report.infraErrors).toEqual([]);
    // Three bases (largest first), then the three heads, each seeded from its base.
    expect(done.slice(0, 3)).toEqual(['acme/large', 'acme/medium', 'acme/small']);
    expect(done).toHaveLength(6);
  });
});
