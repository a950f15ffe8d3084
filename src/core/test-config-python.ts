/**
 * Test files a Python project names itself: pytest's `testpaths` and `python_files`, from
 * `[tool.pytest.ini_options]` in `pyproject.toml`, `[tool:pytest]` in `setup.cfg`, or `[pytest]`
 * in `pytest.ini` / `tox.ini`. TOML is read with smol-toml. The INI files are read the way Python's
 * configparser (which pytest uses) reads them, continuation lines included, which the npm INI
 * parsers do not do: that small reader stays ours. Pure.
 */
import { parse as parseToml } from 'smol-toml';
import { pathGlobs, underFolder } from './test-file-rules.ts';

/** The raw text of each option in one section, `key = value` with indented continuation lines. */
export function iniSection(text: string, section: string): Map<string, string> {
  const out = new Map<string, string>();
  let inside = false;
  let key: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    const header = /^\s*\[([^\]]+)\]\s*$/.exec(line);
    if (header) {
      inside = header[1]!.trim() === section;
      key = undefined;
      continue;
    }
    if (!inside || /^\s*[#;]/.test(line)) continue;
    const kv = /^([A-Za-z_][\w.-]*)\s*[=:]\s*(.*)$/.exec(line);
    if (kv) {
      key = kv[1]!;
      out.set(key, kv[2]!.trim());
    } else if (key && /^\s+\S/.test(line)) out.set(key, `${out.get(key)} ${line.trim()}`.trim());
  }
  return out;
}

/** `[tool.pytest.ini_options]` of a pyproject.toml: each option as a list of strings. */
function pyprojectOptions(text: string): { testpaths: string[]; files: string[] } {
  let doc: Record<string, unknown>;
  try {
    doc = parseToml(text) as Record<string, unknown>;
  } catch {
    return { testpaths: [], files: [] }; // not TOML: it names no test files
  }
  const tool = doc.tool as { pytest?: { ini_options?: Record<string, unknown> } } | undefined;
  const opts = tool?.pytest?.ini_options ?? {};
  const strings = (v: unknown): string[] =>
    typeof v === 'string'
      ? v.split(/\s+/).filter(Boolean)
      : Array.isArray(v)
        ? v.filter((x) => typeof x === 'string')
        : [];
  return { testpaths: strings(opts.testpaths), files: strings(opts.python_files) };
}

/** Globs one Python config file names; `path` is repository-relative. */
export function pythonConfigTestGlobs(path: string, text: string): string[] {
  const slash = path.lastIndexOf('/');
  const folder = slash < 0 ? '' : path.slice(0, slash);
  const name = path.slice(slash + 1);
  let testpaths: string[];
  let files: string[];
  if (name === 'pyproject.toml') ({ testpaths, files } = pyprojectOptions(text));
  else {
    const section = name === 'setup.cfg' ? 'tool:pytest' : 'pytest';
    const s = iniSection(text, section);
    testpaths = (s.get('testpaths') ?? '').split(/[\s,]+/).filter(Boolean);
    files = (s.get('python_files') ?? '').split(/\s+/).filter(Boolean);
  }
  const out = testpaths.flatMap((p) => pathGlobs(folder, p));
  for (const pattern of files) {
    const within = testpaths.length ? testpaths : ['.'];
    for (const p of within) {
      const dir = p === '.' ? folder : underFolder(folder, p);
      if (dir === undefined) continue;
      out.push(dir ? `${dir}/**/${pattern}` : `**/${pattern}`);
    }
  }
  return out;
}

/** The config files read for Python test rules. */
export const PYTHON_TEST_CONFIG = /(?:^|\/)(?:pyproject\.toml|setup\.cfg|pytest\.ini|tox\.ini)$/;
