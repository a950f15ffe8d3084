/**
 * The Action as an evaluator repository holds it: `action.yml` and the bundle `dist/` (with its
 * report templates) copied from this package into `.github/actions/tandem/`, which workflows
 * reference as `uses: ./.github/actions/tandem`. Vendoring (rather than a `owner/repo@v1` tag)
 * pins the evaluator to the exact Tandem version that wrote it, needs no public repository or
 * release, and works where an organization allows only its own actions.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { InfraError } from '../../core/errors.ts';
import { TOOL_VERSION } from '../../engine/version.ts';

/** Where workflows find the vendored Action, relative to the evaluator repository's root. */
export const VENDORED_ACTION_DIR = '.github/actions/tandem';
/** The `uses:` value of every Tandem step in the example workflows and the one `init` writes. */
export const VENDORED_ACTION_USES = `./${VENDORED_ACTION_DIR}`;

/** src/cli/run and build/cli/run sit at the same depth under the package root. */
const PACKAGE_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

async function listFiles(dir: string, rel = ''): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(path.join(dir, rel), { withFileTypes: true })) {
    const sub = path.join(rel, e.name);
    if (e.isDirectory()) out.push(...(await listFiles(dir, sub)));
    else if (e.isFile()) out.push(sub);
  }
  return out.sort();
}

/**
 * The vendored Action's files, as [path relative to the evaluator repository, contents].
 * An installation without the bundle is the installation's trouble, not the user's input.
 */
export async function vendoredActionFiles(): Promise<Array<[string, Buffer]>> {
  const actionYml = path.join(PACKAGE_ROOT, 'action.yml');
  const dist = path.join(PACKAGE_ROOT, 'dist');
  if (!existsSync(actionYml) || !existsSync(path.join(dist, 'index.js')))
    throw new InfraError(
      'engine',
      // The package and a checkout both carry dist/: a missing bundle is a broken installation.
      `this Tandem installation has no Action bundle (${path.join(dist, 'index.js')}); reinstall tandem`,
    );
  const header = `# Vendored by \`tandem action vendor\` from Tandem ${TOOL_VERSION}; run it again to upgrade.\n`;
  const files: Array<[string, Buffer]> = [
    [
      path.join(VENDORED_ACTION_DIR, 'action.yml'),
      Buffer.concat([Buffer.from(header), await readFile(actionYml)]),
    ],
  ];
  for (const rel of await listFiles(dist))
    files.push([path.join(VENDORED_ACTION_DIR, 'dist', rel), await readFile(path.join(dist, rel))]);
  return files;
}
