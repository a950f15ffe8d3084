/**
 * Reliability end to end: signatures, redelivery, restart mid-evaluation (real engine).
 *
 * Both stores: delivery dedup (a redelivery) and the resume after a restart run on each.
 */
import { describe, expect, it } from 'vitest';
import { announceOpened, checksOnHeads } from '../helpers/app-pulls.ts';
import { useScenario } from '../helpers/app-scenario.ts';
import { evaluationCount, evaluationStates } from '../support/store-probe.ts';
import { API_OK, APP_BACKENDS, SCHEMA_OK } from './app-harness.ts';

describe.each(APP_BACKENDS)('App reliability (%s)', (backend) => {
  const scenario = useScenario({ backend });
  it('rejects unsigned deliveries and does nothing twice for a redelivery', async () => {
    const w = await scenario().start();
    const schema = await w.openPull('schema', SCHEMA_OK, '');
    const payload = {
      pullRequest: w.standIn.pullRequest('acme', 'schema', 1) as unknown as Record<string, unknown>,
      repository: w.standIn.repository('acme', 'schema') as unknown as Record<string, unknown>,
      installationId: w.installationId,
    };
    const forged = await w.sender.pullRequest('opened', payload, { signature: 'sha256=00' });
    expect(forged.status).toBe(400);
    const first = await w.sender.pullRequest('opened', payload);
    expect(first.status).toBe(200);
    const again = await w.sender.pullRequest('opened', payload, { deliveryId: first.deliveryId });
    expect(again.status).toBe(200);
    await w.settle();
    expect(w.tandemChecks('schema', schema.head.sha)).toHaveLength(1);
    expect(await evaluationCount(w.app.service.store)).toBe(1);
  });

  it('re-queues an evaluation interrupted by a restart and completes its check runs', async () => {
    const w = await scenario().start();
    const schema = await w.openPull('schema', SCHEMA_OK, '');
    const api = await w.openPull('api', { 'index.js': API_OK }, 'Depends-On: acme/schema#1');
    await announceOpened(w, ['schema', 'api']);
    const world = w;
    w.app.service.flush();
    await world.until(
      () => world.tandemChecks('api', api.head.sha).some((c) => c.status === 'in_progress'),
      'the check run to start',
    );
    await w.restartApp();
    await w.settle();
    for (const { checks } of checksOnHeads(w, { schema, api })) {
      expect(checks).toHaveLength(1); // the resumed evaluation reuses the check run
      expect(checks[0]!.status).toBe('completed');
      expect(checks[0]!.conclusion).toBe('success');
    }
    const states = await evaluationStates(w.app.service.store);
    expect(states.every((s) => s === 'published' || s === 'superseded')).toBe(true);
  });
});
