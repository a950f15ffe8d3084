/**
 * Dependencies and versions as manifests write them, read line by line so a diff's added and
 * removed lines read as well as a whole file: `package.json` (dependency ranges, `name`,
 * `version`), `go.mod` (`module`, `require`, `replace`), `requirements*.txt`, `pyproject.toml`
 * (PEP 621 arrays, Poetry tables, `name`, `version`), `setup.cfg` (`install_requires`,
 * `[metadata]`), `setup.py`. Package names are compared in each ecosystem's normal form. Pure.
 */

export type PackageEcosystem = 'npm' | 'go' | 'python';

export interface ManifestEntry {
  ecosystem: PackageEcosystem;
  kind: 'dependency' | 'name' | 'version';
  /** The package depended on (for `dependency`), or the manifest's own name / version. */
  name: string;
  /** The range, version or replacement for a dependency; the value for `name` and `version`. */
  value: string;
}

/** The ecosystem of a manifest path, or undefined when the file is no manifest. */
export function manifestEcosystem(path: string): PackageEcosystem | undefined {
  const name = path.slice(path.lastIndexOf('/') + 1);
  if (name === 'package.json') return 'npm';
  if (name === 'go.mod') return 'go';
  if (/^requirements.*\.(?:txt|in)$/.test(name) || /(?:^|\/)requirements\/[^/]+\.(?:txt|in)$/.test(path))
    return 'python';
  if (name === 'pyproject.toml' || name === 'setup.cfg' || name === 'setup.py') return 'python';
  return undefined;
}

/** One ecosystem's normal form of a package name (PEP 503 for Python; Go major suffix dropped). */
export function normalPackageName(ecosystem: PackageEcosystem, name: string): string {
  if (ecosystem === 'python') return name.toLowerCase().replace(/[-_.]+/g, '-');
  if (ecosystem === 'go') return name.replace(/\/v\d+$/, '');
  return name;
}

const NPM_SPEC = /^(?:[~^<>=v]*\s*\d[\w.+\-<>=| ]*|workspace:.+|npm:.+|\*|latest|next)$/;
const NPM_NOT_DEPS = new Set([
  'name',
  'version',
  'description',
  'main',
  'module',
  'types',
  'type',
  'license',
]);
/** PEP 508 start: a name, optional extras, then a specifier. */
const PEP508 =
  /^([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*((?:[<>=!~]=?|===)\s*\d[^;#\s"',]*(?:\s*,\s*(?:[<>=!~]=?|===)\s*\d[^;#\s"',]*)*)/;
const PY_NOT_DEPS = new Set([
  'name',
  'version',
  'description',
  'readme',
  'requires-python',
  'license',
  'python',
]);

function npmLine(line: string): ManifestEntry | undefined {
  const m = /^\s*"((?:@[\w.-]+\/)?[\w.-]+)"\s*:\s*"([^"]*)"\s*,?\s*$/.exec(line);
  if (!m) return undefined;
  const [, key, value] = m as unknown as [string, string, string];
  if (key === 'name' || key === 'version') return { ecosystem: 'npm', kind: key, name: key, value };
  if (NPM_NOT_DEPS.has(key) || !NPM_SPEC.test(value.trim())) return undefined;
  return { ecosystem: 'npm', kind: 'dependency', name: key, value: value.trim() };
}

function goLine(line: string): ManifestEntry | undefined {
  const mod = /^\s*module\s+(\S+)/.exec(line);
  if (mod) return { ecosystem: 'go', kind: 'name', name: 'module', value: mod[1]! };
  // `replace a [v] => b v` or `=> ../local`: the replacement is what the build uses.
  const rep = /^\s*(?:replace\s+)?(\S+)(?:\s+v\S+)?\s*=>\s*(\S+)(?:\s+(v\S+))?/.exec(line);
  if (rep) return { ecosystem: 'go', kind: 'dependency', name: rep[1]!, value: rep[3] ?? rep[2]! };
  const req = /^\s*(?:require\s+)?([\w.-]+\.[\w.-]+\/\S+)\s+(v\d\S*)/.exec(line);
  if (req) return { ecosystem: 'go', kind: 'dependency', name: req[1]!, value: req[2]! };
  return undefined;
}

function pythonLine(line: string, file: string): ManifestEntry | undefined {
  const own = /^\s*(name|version)\s*[=:]\s*["']?([^"'\s,]+)["']?\s*,?\s*$/.exec(line);
  if (own && !/^requirements/.test(file))
    return { ecosystem: 'python', kind: own[1] as 'name' | 'version', name: own[1]!, value: own[2]! };
  if (file === 'setup.py') {
    const call = /\b(name|version)\s*=\s*["']([^"']+)["']/.exec(line);
    if (call)
      return { ecosystem: 'python', kind: call[1] as 'name' | 'version', name: call[1]!, value: call[2]! };
  }
  // Poetry: `acme-lib = "^2.0"` or `acme-lib = { version = "^2.0", … }`.
  const poetry = /^\s*([A-Za-z0-9][\w.-]*)\s*=\s*(?:"([^"]+)"|\{[^}]*\bversion\s*=\s*"([^"]+)")/.exec(line);
  if (poetry && file === 'pyproject.toml' && !PY_NOT_DEPS.has(poetry[1]!.toLowerCase())) {
    const value = (poetry[2] ?? poetry[3])!;
    if (/^[~^<>=!]*\s*\d/.test(value))
      return { ecosystem: 'python', kind: 'dependency', name: poetry[1]!, value };
  }
  // PEP 508, bare (requirements, setup.cfg) or quoted in an array (pyproject, setup.py).
  const text = line.trim().replace(/^["']/, '');
  if (text.startsWith('-') || text.startsWith('#')) return undefined;
  const req = PEP508.exec(text);
  if (req && !PY_NOT_DEPS.has(req[1]!.toLowerCase()))
    return { ecosystem: 'python', kind: 'dependency', name: req[1]!, value: req[2]!.replace(/\s+/g, '') };
  return undefined;
}

/** The entries of some lines of one manifest (a whole file, or one side of its diff). */
export function manifestEntries(path: string, lines: readonly string[]): ManifestEntry[] {
  const eco = manifestEcosystem(path);
  if (!eco) return [];
  const file = path.slice(path.lastIndexOf('/') + 1);
  const read = (l: string) => (eco === 'npm' ? npmLine(l) : eco === 'go' ? goLine(l) : pythonLine(l, file));
  return lines.map(read).filter((e): e is ManifestEntry => e !== undefined);
}

/** A dependency a diff moved: to a new range (from the old one, or from nothing when added). */
export interface DependencyMove {
  ecosystem: PackageEcosystem;
  file: string;
  name: string;
  from?: string;
  to: string;
}

/** What one manifest's diff did: dependencies moved, and the version it set for itself. */
export function manifestChange(
  path: string,
  removed: readonly string[],
  added: readonly string[],
): { moves: DependencyMove[]; version?: string } {
  const before = manifestEntries(path, removed);
  const after = manifestEntries(path, added);
  const old = new Map(before.filter((e) => e.kind === 'dependency').map((e) => [e.name, e.value]));
  const moves: DependencyMove[] = [];
  for (const e of after) {
    if (e.kind !== 'dependency' || old.get(e.name) === e.value) continue;
    moves.push({
      ecosystem: e.ecosystem,
      file: path,
      name: e.name,
      ...(old.has(e.name) ? { from: old.get(e.name)! } : {}),
      to: e.value,
    });
  }
  const oldVersion = before.find((e) => e.kind === 'version')?.value;
  const version = after.find((e) => e.kind === 'version')?.value;
  return { moves, ...(version && version !== oldVersion ? { version } : {}) };
}

/** The package a whole manifest publishes (`name`, `module`), if it names one. */
export function manifestPackage(
  path: string,
  text: string,
): { ecosystem: PackageEcosystem; name: string } | undefined {
  const eco = manifestEcosystem(path);
  if (!eco) return undefined;
  if (eco === 'npm') {
    try {
      const name = (JSON.parse(text) as { name?: unknown }).name;
      return typeof name === 'string' && name ? { ecosystem: eco, name } : undefined;
    } catch {
      return undefined;
    }
  }
  const own = manifestEntries(path, text.split(/\r?\n/)).find((e) => e.kind === 'name');
  return own ? { ecosystem: eco, name: own.value } : undefined;
}
