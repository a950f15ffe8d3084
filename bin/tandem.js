#!/usr/bin/env node
// Runs the compiled CLI, build/cli/main.js (`npm run build`; an installed package ships it).
// In a checkout (src/ beside build/) a missing or out-of-date build is compiled first, so
// `node bin/tandem.js`, `npm run demo` and the tests never run stale code; nothing is
// compiled when the build is current, and an installed package never compiles.
import { existsSync } from 'node:fs';

const entry = new URL('../build/cli/main.js', import.meta.url);
if (existsSync(new URL('../src/cli/main.ts', import.meta.url))) {
  const { ensureCurrentBuild } = await import('../scripts/build-cli.js');
  if (!ensureCurrentBuild()) {
    process.stderr.write('tandem: the CLI could not be compiled (see above); `npm run build` shows why.\n');
    process.exit(3);
  }
} else if (!existsSync(entry)) {
  process.stderr.write(
    `tandem: the compiled CLI is missing (${entry.pathname}); reinstall the package, or run \`npm run build\` in a checkout.\n`,
  );
  process.exit(3);
}
await import(entry.href);
