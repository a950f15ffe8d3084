import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../src/report/markdown-report.ts';
import { loadPartials, loadTemplate, templatesDir } from '../../src/report/templates.ts';

const root = resolve(import.meta.dirname, '..', '..');
const work = mkdtempSync(join(tmpdir(), 'tandem-templates-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

// What a bundler must provide for CommonJS dependencies inside an ESM bundle (as the Action's build does).
const banner = [
  "import { createRequire as __cr } from 'node:module';",
  'const require = __cr(import.meta.url);',
].join(' ');

/** Bundles a script that renders a fixture report, the way the Action is bundled. */
async function bundle(outDir: string): Promise<string> {
  const entry = join(work, 'entry.ts');
  writeFileSync(
    entry,
    [
      `import { readJsonReport } from ${JSON.stringify(join(root, 'src/report/json-report.ts'))};`,
      `import { renderMarkdown } from ${JSON.stringify(join(root, 'src/report/markdown-report.ts'))};`,
      'process.stdout.write(renderMarkdown(readJsonReport(process.argv[2]), { reveal: "names" }));',
    ].join('\n'),
  );
  const outfile = join(outDir, 'index.js');
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    banner: { js: banner },
    logLevel: 'silent',
    nodePaths: [join(root, 'node_modules')],
  });
  return outfile;
}

const fixture = join(root, 'test/fixtures/reports/unresolved.json');

describe('templates', () => {
  it('are found from the sources', () => {
    expect(templatesDir()).toBe(join(root, 'templates'));
    expect(loadTemplate('report.md.hbs')).toContain('{{> verdict}}');
    expect([...loadPartials().keys()]).toEqual([
      'details',
      'footer',
      'heads',
      'matrix',
      'trimmed',
      'verdict',
    ]);
  });

  it('are found next to an esbuild bundle (dist/templates) and render identically', async () => {
    const dist = join(work, 'bundle', 'dist');
    const outfile = await bundle(dist);
    cpSync(join(root, 'templates'), join(dist, 'templates'), { recursive: true });
    const env = { ...process.env, TANDEM_TEMPLATES_DIR: '' };
    // cwd outside the repository, so only the bundle-relative lookup can succeed.
    const out = execFileSync(process.execPath, [outfile, fixture], { cwd: work, env, encoding: 'utf8' });
    const { readJsonReport } = await import('../../src/report/json-report.ts');
    expect(out).toBe(renderMarkdown(readJsonReport(fixture), { reveal: 'names' }));
    expect(out).toContain('❌ **Not resolved**');
  });

  it('fail with every place looked when missing', async () => {
    const dist = join(work, 'lonely', 'dist');
    const outfile = await bundle(dist);
    const env = { ...process.env, TANDEM_TEMPLATES_DIR: '' };
    let stderr = '';
    try {
      execFileSync(process.execPath, [outfile, fixture], { cwd: work, env, encoding: 'utf8', stdio: 'pipe' });
    } catch (e) {
      stderr = String((e as { stderr: string }).stderr);
    }
    expect(stderr).toContain("Tandem's report templates were not found");
    expect(stderr).toContain(join(dist, 'templates'));
    expect(stderr).toContain('TANDEM_TEMPLATES_DIR');
  });
});
