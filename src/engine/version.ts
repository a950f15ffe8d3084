import { readFileSync } from 'node:fs';

/** The package version, read once; bundles without package.json beside them report `unknown`. */
function readVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version?: string;
    };
    return pkg.version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

export const TOOL_VERSION = readVersion();
