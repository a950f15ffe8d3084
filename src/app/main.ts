/**
 * `npm start`: runs the App. Without APP_ID / a private key, Probot's setup flow registers a new
 * App from app.yml (the manifest) and writes the credentials to .env. The environment is read
 * here, once.
 */
import { existsSync } from 'node:fs';
import { run } from 'probot';
import { limitHeapGrowth } from './heap-growth.ts';
import { createTandemApp } from './index.ts';
import { resolveManifestInSetup } from './manifest.ts';
import { tandemOctokit } from './octokit.ts';
import { startAppServer } from './server.ts';
import { SettingsError, settingsFromEnv } from './settings.ts';
import { StoreUnavailableError } from './store/store-driver.ts';

if (existsSync('.env')) process.loadEnvFile('.env');

const configured = Boolean(process.env.APP_ID && (process.env.PRIVATE_KEY || process.env.PRIVATE_KEY_PATH));
if (configured) {
  limitHeapGrowth();
  const app = await startAppServer({ env: process.env }).catch((e: unknown) => {
    // A setting or a database the operator must fix: the sentence that says which, no stack trace.
    if (!(e instanceof SettingsError || e instanceof StoreUnavailableError)) throw e;
    console.error(`Tandem cannot start: ${e.message}`);
    process.exit(1);
  });
  console.log(`Tandem listening on ${app.url}/api/github/webhooks`);
  const stop = () => {
    void app.close().then(
      () => process.exit(0),
      (e) => {
        console.error('Tandem did not stop cleanly:', e);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} else {
  const settings = settingsFromEnv(process.env);
  await resolveManifestInSetup(process.env);
  await run(createTandemApp({ settings }), {
    Octokit: tandemOctokit({ writeSpacingMs: settings.writeSpacingMs }),
  });
}
