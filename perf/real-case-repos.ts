/**
 * Lays out the real npm case (real-case-spec.ts) under a folder: per repository a bare remote
 * with `main` (the base: package.json, lib/, the repository's own smoke test) and `pr` (one commit
 * on top: the change, never a hidden test), and the evaluator's folder with the suite and the
 * hidden tests. Synchronous git (examples/checkout/generate.ts): run it before serving.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeRepo, write } from '../examples/checkout/generate.ts';
import { packageJson, REAL_REPOS, suiteYaml } from './real-case-spec.ts';

export interface RealCaseLayout {
  /** Bare remotes, `<name>.git`. */
  remotes: string;
  /** suite.yml and hidden/<name>/tests/…. */
  evaluator: string;
}

export function layRealCase(dir: string): RealCaseLayout {
  const evaluator = path.join(dir, 'evaluator');
  for (const r of REAL_REPOS) {
    const src = r.sources();
    const base = { ...src.base, 'package.json': packageJson(r), '.gitignore': 'node_modules/\n' };
    makeRepo(dir, r.name, base, src.head, 'pr');
    write(path.join(evaluator, 'hidden', r.name), src.hidden);
  }
  mkdirSync(evaluator, { recursive: true });
  writeFileSync(path.join(evaluator, 'suite.yml'), suiteYaml());
  return { remotes: path.join(dir, 'remotes'), evaluator };
}
