/**
 * Wiring entries checked against the repositories once their base states exist: a `node` entry's
 * `name` must be the producer's package.json name, a `go` entry's the producer's go.mod module
 * path. A mismatch (a typo, the wrong folder) is the suite's error (exit 2), caught before any
 * configuration runs instead of as a "cannot find module" in every one of them. A producer
 * without the file is not judged here (its install may generate it).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { InputError } from '../../core/errors.ts';
import type { Suite } from '../../core/suite.schema.ts';

const packageJsonSchema = z.object({ name: z.string().optional() });

/** `repos`: each repository's name as in the case, its workspace name, its base state folder. */
export async function checkWiringNames(
  suite: Suite,
  repos: ReadonlyArray<{ repo: string; name: string; baseDir?: string | undefined }>,
): Promise<void> {
  for (const [i, w] of suite.wiring.entries()) {
    if (w.as !== 'node' && w.as !== 'go') continue;
    const producer = repos.find((r) => r.repo === w.repo || r.name === w.repo);
    if (!producer?.baseDir) continue;
    const dir = path.join(producer.baseDir, w.from ?? '');
    const declared = w.as === 'node' ? await packageName(dir) : await goModule(dir);
    if (declared === undefined || declared === w.name) continue;
    const file = w.as === 'node' ? 'package.json' : 'go.mod';
    throw new InputError(
      `suite "${suite.name}": field "wiring[${i}].name": ${producer.repo}'s ${path.posix.join(w.from ?? '', file)} names "${declared}", not "${w.name}"`,
      undefined,
      `wiring[${i}].name`,
    );
  }
}

async function packageName(dir: string): Promise<string | undefined> {
  const text = await readFile(path.join(dir, 'package.json'), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    return packageJsonSchema.parse(JSON.parse(text)).name;
  } catch {
    return undefined;
  }
}

async function goModule(dir: string): Promise<string | undefined> {
  const text = await readFile(path.join(dir, 'go.mod'), 'utf8').catch(() => undefined);
  return text === undefined ? undefined : /^module\s+(\S+)/m.exec(text)?.[1];
}
