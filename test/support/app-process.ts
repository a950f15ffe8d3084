/**
 * The App's real server as its own process, with the stub executor (`stub-executor.ts`): what a
 * kill can be done to. Run as `node --import tsx test/support/app-process.ts` with the App's
 * environment; prints `{"url": …}` once listening. With TANDEM_TEST_EXIT_AFTER_CHECK_CREATE=n
 * the process exits (status 137, as after SIGKILL) right after GitHub answered its n-th check-run
 * creation and before the id is stored: the window a crash orphans a check in, hit exactly.
 * With TANDEM_TEST_HOLD_EVALUATIONS=1 each evaluation prints `{"event":"evaluation-started"}` and
 * then holds (a shutdown's abort included) until a line arrives on stdin: in-flight work that
 * takes a while to drain. On SIGTERM/SIGINT it prints `{"event":"stopping"}` once the drain began.
 */
import { createInterface } from 'node:readline';
import type { LinkedChangeSpec } from '../../src/app/executors/executor.ts';
import { limitHeapGrowth } from '../../src/app/heap-growth.ts';
import { startAppServer } from '../../src/app/server.ts';
import { StubExecutor } from './stub-executor.ts';

// As `npm start` does (src/app/main.ts): the benchmark measures the App as it is run.
limitHeapGrowth();
/** The stub, holding each evaluation until stdin says so. */
class HeldExecutor extends StubExecutor {
  private readonly released = new Promise<void>((ok) =>
    createInterface({ input: process.stdin }).once('line', () => ok()),
  );
  override async run(spec: LinkedChangeSpec) {
    process.stdout.write('{"event":"evaluation-started"}\n');
    await this.released;
    return super.run(spec);
  }
}

const hold = process.env.TANDEM_TEST_HOLD_EVALUATIONS === '1';
const app = await startAppServer({
  env: process.env,
  executor: hold ? new HeldExecutor() : new StubExecutor(),
});
const exitAfter = Number(process.env.TANDEM_TEST_EXIT_AFTER_CHECK_CREATE ?? 0);
if (exitAfter > 0) {
  let created = 0;
  app.service.checks.afterCreate = () => {
    created += 1;
    if (created >= exitAfter) process.exit(137);
  };
}
process.stdout.write(`${JSON.stringify({ url: app.url, pid: process.pid })}\n`);
const stop = () => {
  const closing = app.close();
  process.stdout.write('{"event":"stopping"}\n');
  void closing.then(() => process.exit(0));
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
