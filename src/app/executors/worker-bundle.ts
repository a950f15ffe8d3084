/**
 * What the App hands the worker pool for one evaluation: the change (targets with their clone
 * URLs, context), the suite and every file of its folder (the suite file and its hidden files),
 * capped in size.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { InfraError } from '../../core/errors.ts';
import { MAX_BUNDLE_FILE_BYTES, type WorkerBundle } from '../../core/worker-job.schema.ts';
import type { LinkedChangeSpec } from './executor.ts';

/** The suite folder's files (the suite and its hidden files) travel with the change. */
export async function bundleOf(change: LinkedChangeSpec): Promise<WorkerBundle> {
  const files: WorkerBundle['files'] = [];
  let bytes = 0;
  const entries = await readdir(change.suiteDir, { recursive: true, withFileTypes: true });
  for (const e of entries) {
    if (!e.isFile()) continue;
    const abs = path.join(e.parentPath, e.name);
    const content = await readFile(abs);
    bytes += content.length;
    if (bytes > MAX_BUNDLE_FILE_BYTES)
      throw new InfraError(
        'hidden-files',
        `the suite's files exceed ${MAX_BUNDLE_FILE_BYTES} bytes, more than a worker job carries`,
      );
    files.push({
      path: path.relative(change.suiteDir, abs).split(path.sep).join('/'),
      base64: content.toString('base64'),
    });
  }
  return {
    name: change.name,
    targets: change.targets,
    context: change.context,
    suite: change.suite,
    matrix: change.matrix,
    reruns: 0,
    files,
  };
}
