import { readFileSync } from 'node:fs';

/** The package version, read once. */
declare const __TANDEM_VERSION__: string | undefined;

function readVersion(): string {
  // The Action bundle has no package.json beside it; its build defines the version.
  if (typeof __TANDEM_VERSION__ !== 'undefined') return __TANDEM_VERSION__;
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
