/**
 * What the host offers Tandem's engine (cache folder, CA bundle, work folder), read from the
 * environment once when a face starts. Kept apart from `evaluation-request.ts` so a face can
 * read it without loading Docker code.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import envPaths from 'env-paths';

/** What the host offers, read from the environment once when a face starts (never at import). */
export interface HostDefaults {
  /** `TANDEM_CACHE_DIR`, else the user cache folder. */
  cacheDir: string;
  /** The host's CA bundle, if it has one. */
  caBundle?: string;
  /** `TANDEM_WORK_DIR`: where workspaces are assembled (else the engine picks a tmpfs). */
  workDir?: string;
}

const SYSTEM_CA_BUNDLES = ['/etc/ssl/certs/ca-certificates.crt', '/etc/pki/tls/certs/ca-bundle.crt'];

/** Reads the variables Tandem's engine defaults depend on. Call once at start with `process.env`. */
export function hostDefaults(env: NodeJS.ProcessEnv): HostDefaults {
  const ca = [env.NODE_EXTRA_CA_CERTS, env.SSL_CERT_FILE, ...SYSTEM_CA_BUNDLES].find(
    (c): c is string => !!c && existsSync(c),
  );
  return {
    cacheDir: path.resolve(env.TANDEM_CACHE_DIR || envPaths('tandem', { suffix: '' }).cache),
    ...(ca ? { caBundle: ca } : {}),
    ...(env.TANDEM_WORK_DIR ? { workDir: path.resolve(env.TANDEM_WORK_DIR) } : {}),
  };
}
