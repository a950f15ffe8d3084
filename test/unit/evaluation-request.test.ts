import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/core/errors.ts';
import type { ChangeSpec } from '../../src/core/evaluation-request.schema.ts';
import { suiteSchema } from '../../src/core/suite.schema.ts';
import {
  buildEvaluationRequest,
  defaultJobs,
  engineDefaults,
  hostDefaults,
} from '../../src/engine/evaluation-request.ts';

const suite = suiteSchema.parse({
  name: 's',
  image: 'tandem/sandbox:node20',
  tests: [{ name: 'unit', run: 'true', results: { format: 'tap', path: 'r.tap' } }],
});
const change: ChangeSpec = {
  caseFile: {
    name: 'c',
    targets: ['acme/api', 'acme/web'].map((repo) => ({
      repo,
      url: `/srv/${repo}`,
      base: 'main',
      head: 'pr',
      merge: false,
    })),
    context: [],
  },
  suite,
  suiteDir: '/srv/suite',
  caseDir: '/srv/case',
};
const host = { cacheDir: '/var/cache/tandem' };
const noBridge = async () => 'host';

describe('buildEvaluationRequest', () => {
  it('decides every default the same way for every face', async () => {
    const { options } = await buildEvaluationRequest(change, {}, { host, detectNetwork: noBridge });
    expect(options).toEqual({
      matrix: 'auto',
      reruns: 0,
      jobs: defaultJobs(suite),
      cacheDir: '/var/cache/tandem',
      useResultCache: true,
      sandbox: 'docker',
      prepareNetwork: 'host',
    });
    expect(options.jobs).toBeGreaterThanOrEqual(1);
    expect(options.jobs).toBeLessThanOrEqual(os.availableParallelism());
  });

  it('keeps what the face set and resolves folders', async () => {
    const { options } = await buildEvaluationRequest(
      change,
      {
        matrix: 'full',
        reruns: 2,
        jobs: 3,
        cacheDir: 'rel/cache',
        workDir: 'rel/work',
        useResultCache: false,
        prepareNetwork: 'bridge',
      },
      { host, detectNetwork: noBridge },
    );
    expect(options).toMatchObject({
      matrix: 'full',
      reruns: 2,
      jobs: 3,
      useResultCache: false,
      prepareNetwork: 'bridge',
    });
    expect(options.cacheDir).toBe(path.resolve('rel/cache'));
    expect(options.workDir).toBe(path.resolve('rel/work'));
  });

  it('takes the work folder from the host unless one is given', async () => {
    const withWork = { ...host, workDir: '/dev/shm/w' };
    const opts = { host: withWork, detectNetwork: noBridge };
    expect((await buildEvaluationRequest(change, {}, opts)).options.workDir).toBe('/dev/shm/w');
    expect((await buildEvaluationRequest(change, { workDir: '/tmp/x' }, opts)).options.workDir).toBe(
      '/tmp/x',
    );
  });

  it('gives the process sandbox no network and never asks Docker', async () => {
    const detectNetwork = async () => {
      throw new Error('Docker was asked');
    };
    const { options } = await buildEvaluationRequest(change, { sandbox: 'process' }, { host, detectNetwork });
    expect(options.prepareNetwork).toBe('none');
  });

  it('turns a shard into the configurations it runs', async () => {
    const { options } = await buildEvaluationRequest(
      change,
      { matrix: 'full', shard: '2/2' },
      { host, detectNetwork: noBridge },
    );
    expect(options.only).toEqual(['api', 'full']);
    expect(options.shardLabel).toBe('2/2');
  });

  it('refuses a shard with nothing to run, naming the setting as the face calls it', async () => {
    const label = (s: string) => `input "${s}"`;
    await expect(
      buildEvaluationRequest(
        change,
        { matrix: 'full', shard: '5/5' },
        { host, label, detectNetwork: noBridge },
      ),
    ).rejects.toThrow(/^input "shard": shard 5\/5 has no configuration to run/);
  });

  it('names a bad setting', async () => {
    const err = await buildEvaluationRequest(
      change,
      { reruns: 99 },
      { host, label: (s) => `option --${s}` },
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).message).toMatch(/^option --reruns: /);
  });

  it('takes the host CA bundle unless one is given, and refuses a missing file', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tandem-ca-'));
    const ca = path.join(dir, 'ca.pem');
    writeFileSync(ca, 'x');
    const withCa = { ...host, caBundle: ca };
    expect(
      (await buildEvaluationRequest(change, {}, { host: withCa, detectNetwork: noBridge })).options.caBundle,
    ).toBe(ca);
    await expect(
      buildEvaluationRequest(
        change,
        { caBundle: path.join(dir, 'missing.pem') },
        { host: withCa, detectNetwork: noBridge },
      ),
    ).rejects.toThrow(/caBundle.*no such file/);
  });
});

describe('engineDefaults', () => {
  it('decides the change-independent options exactly as a request does', async () => {
    const settings = { sandbox: 'docker' as const, useResultCache: false, cacheDir: 'c' };
    const opts = { host: { ...host, workDir: '/w' }, detectNetwork: noBridge };
    const { options } = await buildEvaluationRequest(change, settings, opts);
    const { matrix: _m, reruns: _r, jobs: _j, ...shared } = options;
    expect(await engineDefaults(settings, opts)).toEqual(shared);
  });
});

describe('hostDefaults', () => {
  it('reads the cache folder and CA bundle from the given environment only', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tandem-env-'));
    const ca = path.join(dir, 'extra.pem');
    writeFileSync(ca, 'x');
    expect(hostDefaults({ TANDEM_CACHE_DIR: dir, NODE_EXTRA_CA_CERTS: ca, TANDEM_WORK_DIR: 'w' })).toEqual({
      cacheDir: dir,
      caBundle: ca,
      workDir: path.resolve('w'),
    });
    expect(hostDefaults({}).cacheDir).toMatch(/tandem/);
  });
});
