/**
 * The App's environment, read once at start: defaults, coercion, and a bad value stopping the
 * App with the variable named.
 */
import { describe, expect, it } from 'vitest';
import { settingsFromEnv } from '../../src/app/settings.ts';

describe('settingsFromEnv', () => {
  it('has a default for every Tandem variable; jobs are left to the engine', () => {
    const s = settingsFromEnv({});
    expect(s).toMatchObject({
      dataDir: '.tandem',
      debounceMs: 5000,
      concurrency: 2,
      sandbox: 'docker',
      jobs: undefined,
      writeSpacingMs: 0,
      configTtlMs: 60_000,
      port: 3000,
      host: '0.0.0.0',
    });
    expect(s.engineHost.cacheDir).toMatch(/tandem/);
  });

  it('reads numbers from strings and the engine host defaults from the same environment', () => {
    const s = settingsFromEnv({
      TANDEM_JOBS: '3',
      TANDEM_DEBOUNCE_MS: '0',
      TANDEM_SANDBOX: 'process',
      TANDEM_ALLOW_PROCESS_SANDBOX: '1',
      TANDEM_CACHE_DIR: '/tmp/tandem-cache-x',
      PORT: '0',
    });
    expect(s).toMatchObject({ jobs: 3, debounceMs: 0, sandbox: 'process', port: 0 });
    expect(s.engineHost.cacheDir).toBe('/tmp/tandem-cache-x');
  });

  it('refuses the process sandbox without the development flag, naming both variables', () => {
    expect(() => settingsFromEnv({ TANDEM_SANDBOX: 'process' })).toThrow(
      /TANDEM_SANDBOX.*TANDEM_ALLOW_PROCESS_SANDBOX=1/,
    );
    expect(settingsFromEnv({}).sandbox).toBe('docker');
  });

  it('keeps the state in tandem.db unless DATABASE_URL names a PostgreSQL database', () => {
    expect(settingsFromEnv({}).databaseUrl).toBeUndefined();
    expect(settingsFromEnv({ DATABASE_URL: '' }).databaseUrl).toBeUndefined();
    const url = 'postgres://tandem:secret@db.internal:5432/tandem';
    expect(settingsFromEnv({ DATABASE_URL: url }).databaseUrl).toBe(url);
  });

  it.each([
    ['TANDEM_CONCURRENCY', '0'],
    ['TANDEM_JOBS', 'many'],
    ['TANDEM_SANDBOX', 'vm'],
    ['DATABASE_URL', 'mysql://db/tandem'],
  ])('refuses %s=%s, naming the variable', (name, value) => {
    expect(() => settingsFromEnv({ [name]: value })).toThrow(`environment variable ${name}:`);
  });
});
