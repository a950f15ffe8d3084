/**
 * Locating and loading the handlebars templates in `templates/`.
 *
 * Choice: templates are read with fs at runtime, from a folder found relative to this module's
 * `import.meta.url`. Importing `.hbs` as text would need an esbuild loader that tsx and vitest do
 * not understand, and a generated `.ts` copy of the templates would be one more thing to keep in
 * sync. The candidates, first existing wins:
 *   1. `$TANDEM_TEMPLATES_DIR` (an explicit override, e.g. for a relocated bundle);
 *   2. `<module>/../../templates` — running from sources (src/report/templates.ts);
 *   3. `<module>/templates`       — a bundle (dist/index.js) with templates copied next to it;
 *   4. `<module>/../templates`    — a bundle in dist/ of a checkout that keeps templates/ at the root.
 * The Action's build therefore bundles with esbuild (ESM, so `import.meta.url` survives) and either
 * keeps `templates/` at the repository root or copies it to `dist/templates/`.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const MARKER = 'report.md.hbs';

function moduleDir(): string | undefined {
  try {
    return dirname(fileURLToPath(import.meta.url));
  } catch {
    // A CommonJS bundle has no import.meta.url; only the override and cwd remain.
    return undefined;
  }
}

export function templateDirCandidates(): string[] {
  const here = moduleDir();
  const out: string[] = [];
  const override = process.env.TANDEM_TEMPLATES_DIR;
  if (override) out.push(resolve(override));
  if (here)
    out.push(join(here, '..', '..', 'templates'), join(here, 'templates'), join(here, '..', 'templates'));
  out.push(resolve('templates'));
  return out;
}

let cachedDir: string | undefined;

/** The folder holding the templates; throws naming every place it looked. */
export function templatesDir(): string {
  if (cachedDir) return cachedDir;
  const candidates = templateDirCandidates();
  const found = candidates.find((d) => existsSync(join(d, MARKER)));
  if (!found) {
    throw new Error(
      `Tandem's report templates were not found (looked for ${MARKER} in: ${candidates.join(', ')}). ` +
        'Copy templates/ next to the bundle or set TANDEM_TEMPLATES_DIR.',
    );
  }
  cachedDir = found;
  return found;
}

const texts = new Map<string, string>();

/** The text of `templates/<name>`, e.g. `report.md.hbs`; cached after the first read. */
export function loadTemplate(name: string): string {
  let text = texts.get(name);
  if (text === undefined) {
    text = readFileSync(join(templatesDir(), name), 'utf8');
    texts.set(name, text);
  }
  return text;
}

/** Partials in `templates/partials/*.hbs`, keyed by file name without extensions (`matrix`). */
export function loadPartials(): Map<string, string> {
  const dir = join(templatesDir(), 'partials');
  const out = new Map<string, string>();
  if (!existsSync(dir)) return out;
  for (const file of readdirSync(dir).sort()) {
    if (!file.endsWith('.hbs')) continue;
    const name = basename(file).replace(/(\.md)?\.hbs$/, '');
    out.set(name, loadTemplate(join('partials', file)));
  }
  return out;
}
