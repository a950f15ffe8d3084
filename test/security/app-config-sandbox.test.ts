/**
 * The App's own secrets and the evaluator's hidden tests (issue 17, findings 8 and 9), against the
 * App over HTTP with signed webhooks and the GitHub stand-in. `tandem.yml` naming the evaluator
 * repository as one a suite covers is refused at load, naming the field. The process sandbox is
 * refused unless the development flag is set, and PR code never sees the App's environment —
 * its private key and webhook secret — in either sandbox (the real engine: Docker, and host
 * processes with the flag).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startAppServer } from '../../src/app/server.ts';
import { orgConfig, SCHEMA_OK, SECRET } from '../e2e/app-harness.ts';
import { useScenario } from '../helpers/app-scenario.ts';
import { appKeys } from '../support/app-keys.ts';

const scenario = useScenario();

/** PR code that fails the hidden test when it can see anything of the App's own environment. */
const API_SNOOPS = `const s = require('../schema');
const seen = Object.entries(process.env)
  .filter(([k, v]) => /PRIVATE_KEY|WEBHOOK_SECRET|APP_ID/.test(k) || String(v).includes('PRIVATE KEY') || v === ${JSON.stringify(SECRET)})
  .map(([k]) => k);
module.exports = { total(xs) {
  if (seen.length > 0) throw new Error('the App leaked ' + seen.join(','));
  if (!s.fields.includes('total')) throw new Error('schema lacks total');
  return xs.reduce((a, b) => a + b, 0);
} };
`;

describe('attack: the evaluator repository as a covered repository', () => {
  it('is refused when tandem.yml loads, and the check names the field', async () => {
    const config = orgConfig().replace(
      'repos: [acme/schema, acme/api, acme/web]',
      'repos: [acme/schema, acme/api, acme/web, acme/tandem-suites]',
    );
    const w = await scenario().with({ config }).start();
    const schema = await w.openPull('schema', SCHEMA_OK, '');
    await w.sendPull('opened', 'schema', 1);
    await w.settle();
    const [check] = w.tandemChecks('schema', schema.head.sha);
    expect(check!.conclusion).toBe('failure');
    expect(check!.output.title).toContain('suites[0].repos[3]');
    expect(check!.output.summary).toContain('acme/tandem-suites is the evaluator repository');
    // Nothing was checked out: no clone of the evaluator next to PR code, no evaluation at all.
    expect(w.standIn.requests.some((r) => r.path.includes('/tandem-suites/contents/suites'))).toBe(false);
  });
});

describe('attack: PR code reading the App environment', () => {
  // What `npm start` does: `.env` (the App's key and secret) lands in the App's process.env.
  const saved = { PRIVATE_KEY: process.env.PRIVATE_KEY, WEBHOOK_SECRET: process.env.WEBHOOK_SECRET };
  afterEach(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });
  const loadDotEnv = () => {
    process.env.PRIVATE_KEY = appKeys().privateKeyPem;
    process.env.WEBHOOK_SECRET = SECRET;
  };

  it('refuses TANDEM_SANDBOX=process without the development flag, naming it', async () => {
    const w = await scenario().start();
    await expect(startAppServer({ env: { ...w.env, TANDEM_SANDBOX: 'process', PORT: '0' } })).rejects.toThrow(
      /TANDEM_SANDBOX.*TANDEM_ALLOW_PROCESS_SANDBOX=1/s,
    );
  });

  it.each([
    ['docker', {}],
    ['process (development flag set)', { TANDEM_SANDBOX: 'process', TANDEM_ALLOW_PROCESS_SANDBOX: '1' }],
  ])('%s: a step sees neither the private key nor the webhook secret', async (_name, env) => {
    loadDotEnv();
    const w = await scenario().with({ env }).start();
    await w.openPull('schema', SCHEMA_OK, 'Depends-On: acme/api#1');
    const api = await w.openPull('api', { 'index.js': API_SNOOPS }, 'Depends-On: acme/schema#1');
    await w.sendPull('opened', 'schema', 1);
    await w.sendPull('opened', 'api', 1);
    await w.settle();
    const body = w.stickyComments('api', 1)[0]!.body!;
    expect(body).not.toContain('the App leaked');
    expect(
      w.tandemChecks('api', api.head.sha).map((c) => c.conclusion),
      body,
    ).toEqual(['success']);
  });
});
