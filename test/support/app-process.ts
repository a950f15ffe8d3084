/**
 * The App's real server as its own process, with the stub executor (`stub-executor.ts`): what a
 * kill can be done to. Run as `node --import tsx test/support/app-process.ts` with the App's
 * environment; prints `{"url": …}` once listening. With TANDEM_TEST_EXIT_AFTER_CHECK_CREATE=n
 * the process exits (status 137, as after SIGKILL) right after GitHub answered its n-th check-run
 * creation and before the id is stored: the window a crash orphans a check in, hit exactly.
 */
import { limitHeapGrowth } from '../../src/app/heap-growth.ts';
import { startAppServer } from '../../src/app/server.ts';
import { StubExecutor } from './stub-executor.ts';

// As `npm start` does (src/app/main.ts): the benchmark measures the App as it is run.
limitHeapGrowth();
const app = await startAppServer({ env: process.env, executor: new StubExecutor() });
const exitAfter = Number(process.env.TANDEM_TEST_EXIT_AFTER_CHECK_CREATE ?? 0);
if (exitAfter > 0) {
  let created = 0;
  app.service.checks.afterCreate = () => {
    created += 1;
    if (created >= exitAfter) process.exit(137);
  };
}
process.stdout.write(`${JSON.stringify({ url: app.url, pid: process.pid })}\n`);
const stop = () => void app.close().then(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
