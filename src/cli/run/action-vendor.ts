/**
 * `tandem action vendor [--dir DIR]`: writes the Action into an evaluator repository checkout
 * (`.github/actions/tandem/`), replacing an older vendored copy, so its workflows'
 * `uses: ./.github/actions/tandem` runs this Tandem version.
 */
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { InputError } from '../../core/errors.ts';
import { parseFlags } from '../eval-options.ts';
import { VENDORED_ACTION_DIR, vendoredActionFiles } from './action-files.ts';

const flagsSchema = z.object({ dir: z.string().min(1) });

export async function actionVendorCommand(raw: unknown): Promise<number> {
  const { dir } = parseFlags(flagsSchema, raw);
  if (!existsSync(dir)) throw new InputError(`option --dir: no such folder ${dir}`);
  const files = await vendoredActionFiles();
  // A stale bundle file left beside the new one would be harmless, but the folder is ours alone.
  await rm(path.join(dir, VENDORED_ACTION_DIR), { recursive: true, force: true });
  for (const [rel, data] of files) {
    const file = path.join(dir, rel);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, data);
  }
  process.stdout.write(
    [
      `wrote ${path.join(dir, VENDORED_ACTION_DIR)} (${files.length} files)`,
      `commit it; workflows use it as \`uses: ./${VENDORED_ACTION_DIR}\` after actions/checkout`,
      '',
    ].join('\n'),
  );
  return 0;
}
