/**
 * Stages each test group's hidden files into `<root>/<group>/` once per evaluation. They are
 * mounted read-only at $TANDEM_HIDDEN and never copied into a repository checkout.
 */
import { createHash } from 'node:crypto';
import { cp, mkdir, readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { InputError } from '../../core/errors.ts';
import type { Suite } from '../../core/suite.schema.ts';

export async function stageHiddenFiles(
  suite: Suite,
  suiteDir: string,
  root: string,
): Promise<Map<string, string>> {
  const dirs = new Map<string, string>();
  for (const [i, group] of suite.tests.entries()) {
    const dir = path.join(root, group.name);
    await mkdir(dir, { recursive: true });
    const names = new Set<string>();
    for (const [j, rel] of group.files.entries()) {
      const src = path.resolve(suiteDir, rel);
      const name = path.basename(src);
      if (names.has(name)) {
        throw new InputError(
          `suite "${suite.name}": field "tests[${i}].files[${j}]": two hidden files would both be named "${name}"`,
        );
      }
      names.add(name);
      try {
        await cp(src, path.join(dir, name), { recursive: true });
      } catch {
        throw new InputError(
          `suite "${suite.name}": field "tests[${i}].files[${j}]": cannot read hidden file "${rel}" (relative to ${suiteDir})`,
        );
      }
    }
    dirs.set(group.name, dir);
  }
  return dirs;
}

/** A hash of the suite and every hidden file's path and content: part of result cache keys. */
export async function suiteHash(suite: Suite, suiteDir: string): Promise<string> {
  const h = createHash('sha256').update(JSON.stringify(suite));
  const walk = async (p: string, label: string): Promise<void> => {
    let s: Awaited<ReturnType<typeof stat>>;
    try {
      s = await stat(p);
    } catch {
      h.update(`missing:${label}`);
      return;
    }
    if (s.isDirectory()) {
      for (const e of (await readdir(p)).sort()) await walk(path.join(p, e), `${label}/${e}`);
    } else {
      h.update(`file:${label}:`).update(await readFile(p));
    }
  };
  for (const g of suite.tests)
    for (const f of g.files) await walk(path.resolve(suiteDir, f), `${g.name}:${f}`);
  return h.digest('hex');
}
