/**
 * Test GitHub App key pair, generated once per test process (module cache).
 *
 * Public API:
 * - `appKeys(): AppKeys` — `{ privateKeyPem, publicKeyPem, publicKey }`. `privateKeyPem` is PKCS#1
 *   (`-----BEGIN RSA PRIVATE KEY-----`), the format GitHub hands out for App keys, so it can be given to
 *   Probot as `privateKey` / `PRIVATE_KEY` unchanged. `publicKey` is a `KeyObject` for the stand-in's
 *   JWT verification.
 * - `TEST_APP_ID` — the App id the stand-in and the App should agree on by default.
 */
import { createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';

export const TEST_APP_ID = 4242;

export interface AppKeys {
  privateKeyPem: string;
  publicKeyPem: string;
  publicKey: KeyObject;
}

let cached: AppKeys | undefined;

export function appKeys(): AppKeys {
  if (cached) return cached;
  // 2048 bits like GitHub's keys; generation takes ~100 ms, hence the cache.
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  cached = { privateKeyPem: privateKey, publicKeyPem: publicKey, publicKey: createPublicKey(publicKey) };
  return cached;
}
