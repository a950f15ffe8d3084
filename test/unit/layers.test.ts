import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importCycles, layerViolations } from '../helpers/import-layers.ts';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src');

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'tandem-layers-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), text);
  }
  return root;
}

describe('layer rules on the import graph', () => {
  it('hold for src/', () => {
    expect(layerViolations(SRC)).toEqual([]);
  });

  it.each([
    [
      'a face importing another face',
      'action/steps.ts',
      "import { x } from '../cli/eval-options.ts';",
      'action may import only',
    ],
    [
      'core importing the engine',
      'core/grading.ts',
      "export { y } from '../engine/git.ts';",
      'core may import only nothing of ours',
    ],
    ['core doing I/O', 'core/io.ts', "import { readFile } from 'node:fs/promises';", 'core is pure'],
    [
      'bench importing a face (dynamic)',
      'bench/run.ts',
      "const m = await import('../app/index.ts');",
      'bench may import only',
    ],
    [
      'mine importing a face',
      'mine/x.ts',
      "import type { T } from '../cli/run/eval.ts';",
      'mine may import only',
    ],
    [
      'engine importing the report layer',
      'engine/x.ts',
      "import { r } from '../report/json-report.ts';",
      'engine may import only core',
    ],
    ['a file outside any layer', 'misc/x.ts', '', 'not inside a known layer'],
  ])('fail on %s', (_name, file, text, rule) => {
    const root = tree({ [file]: text, 'cli/eval-options.ts': '', 'engine/git.ts': '', 'app/index.ts': '' });
    const found = layerViolations(root);
    expect(found).toHaveLength(1);
    expect(found[0]!.file).toBe(file);
    expect(found[0]!.rule).toContain(rule);
  });

  it('find no import cycle in src/ (type-only imports included)', () => {
    expect(importCycles(SRC)).toEqual([]);
  });

  it('find a cycle of type-only imports', () => {
    const root = tree({
      'app/store/a.ts': "import type { B } from './b.ts';",
      'app/store/b.ts': "import type { A } from './a.ts';",
    });
    expect(importCycles(root)).toEqual([['app/store/a.ts', 'app/store/b.ts', 'app/store/a.ts']]);
  });

  it.each([
    [
      'the store importing another room',
      'app/store/x.ts',
      "import '../evaluations/e.ts';",
      'app/store may import only',
    ],
    [
      'a room importing the composition',
      'app/evaluations/x.ts',
      "import '../index.ts';",
      "never imports the App's composition",
    ],
    [
      'the merge queue importing webhooks',
      'app/merge-queue/x.ts',
      "import '../webhooks/w.ts';",
      'app/merge-queue may import only',
    ],
    ['a folder that is no room', 'app/misc/x.ts', '', 'not a known room'],
  ])('fail on %s', (_name, file, text, rule) => {
    const root = tree({
      [file]: text,
      'app/evaluations/e.ts': '',
      'app/index.ts': '',
      'app/webhooks/w.ts': '',
    });
    const found = layerViolations(root);
    expect(found).toHaveLength(1);
    expect(found[0]!.file).toBe(file);
    expect(found[0]!.rule).toContain(rule);
  });

  it('allow what the rules allow', () => {
    const root = tree({
      'cli/x.ts': "import '../engine/a.ts'; import '../bench/b.ts'; import 'commander';",
      'engine/a.ts': "import '../core/c.ts'; import 'node:fs';",
      'bench/b.ts': "import '../github/g.ts';",
      'github/g.ts': "import '../core/c.ts';",
      'core/c.ts': "import { z } from 'zod'; import './d.ts';",
      'core/d.ts': '',
    });
    expect(layerViolations(root)).toEqual([]);
  });
});
