/**
 * Which toolchain a repository uses, from the files at its root, and how a starter suite
 * prepares and tests it: npm (with or without a lockfile), pnpm, Yarn, Python (pyproject.toml or
 * requirements.txt) or Go modules. A repository none of them fits is said with what was seen,
 * so `tandem init` can tell the user instead of guessing. Pure.
 */

export type EcosystemKind = 'npm' | 'npm-no-lock' | 'pnpm' | 'yarn' | 'yarn-berry' | 'python' | 'go';
export type Language = 'node' | 'python' | 'go';

export interface Ecosystem {
  kind: EcosystemKind;
  language: Language;
  /** What decided it, for the user: `package.json and package-lock.json`. */
  evidence: string;
  /** The prepare step (run in the repository's folder, with the allowed registries). */
  prepare: { run: string; key_files: string[]; outputs: string[] };
}

export type Detection = { ok: true; ecosystem: Ecosystem } | { ok: false; saw: string[] };

export interface RootListing {
  /** Names of the files and folders at the repository's root. */
  entries: readonly string[];
}

const NPM = '--no-audit --no-fund';
/** Module and build caches inside the repository, so prepare's folder carries them to the tests. */
const GO_ENV = 'GOMODCACHE=$PWD/.gomodcache GOFLAGS=-modcacherw GOPROXY=https://proxy.golang.org';
/** The image's python3 has no pip of its own; packages go to a folder the tests put on PYTHONPATH. */
const PIP = 'python3 -m pip install --no-input --target .pydeps';

export function detectEcosystem(listing: RootListing): Detection {
  const has = (name: string) => listing.entries.includes(name);
  const node = (kind: EcosystemKind, lock: string | undefined, run: string): Detection => ({
    ok: true,
    ecosystem: {
      kind,
      language: 'node',
      evidence: lock ? `package.json and ${lock}` : 'package.json without a lockfile',
      prepare: {
        run,
        key_files: lock ? ['package.json', lock] : ['package.json'],
        outputs: ['node_modules'],
      },
    },
  });
  if (has('package.json')) {
    if (has('pnpm-lock.yaml'))
      return node(
        'pnpm',
        'pnpm-lock.yaml',
        `npx --yes pnpm install --frozen-lockfile --config.node-linker=hoisted`,
      );
    if (has('yarn.lock') && has('.yarnrc.yml'))
      return node('yarn-berry', 'yarn.lock', 'corepack yarn install --immutable');
    if (has('yarn.lock')) return node('yarn', 'yarn.lock', 'npx --yes yarn@1 install --frozen-lockfile');
    if (has('package-lock.json')) return node('npm', 'package-lock.json', `npm ci ${NPM}`);
    if (has('npm-shrinkwrap.json')) return node('npm', 'npm-shrinkwrap.json', `npm ci ${NPM}`);
    return node('npm-no-lock', undefined, `npm install ${NPM} --no-package-lock`);
  }
  if (has('go.mod'))
    return {
      ok: true,
      ecosystem: {
        kind: 'go',
        language: 'go',
        evidence: has('go.sum') ? 'go.mod and go.sum' : 'go.mod',
        prepare: {
          run: `${GO_ENV} go mod download`,
          key_files: has('go.sum') ? ['go.mod', 'go.sum'] : ['go.mod'],
          outputs: ['.gomodcache'],
        },
      },
    };
  const python = has('pyproject.toml')
    ? 'pyproject.toml'
    : has('requirements.txt')
      ? 'requirements.txt'
      : undefined;
  if (python)
    return {
      ok: true,
      ecosystem: {
        kind: 'python',
        language: 'python',
        evidence: python,
        prepare: {
          run: python === 'pyproject.toml' ? `${PIP} .` : `${PIP} -r requirements.txt`,
          key_files: [python],
          outputs: ['.pydeps'],
        },
      },
    };
  return { ok: false, saw: [...listing.entries].sort() };
}

/**
 * The one image a suite runs in: each language image also has Node (they are built on the Node
 * one), but none has both Python and Go.
 */
export function imageFor(languages: ReadonlySet<Language>): { image: string; conflict?: string } {
  if (languages.has('python') && languages.has('go'))
    return {
      image: 'tandem/sandbox:python3',
      conflict: 'no Tandem image has both Python and Go: build one with both, and set `image` to it',
    };
  if (languages.has('python')) return { image: 'tandem/sandbox:python3' };
  if (languages.has('go')) return { image: 'tandem/sandbox:go' };
  return { image: 'tandem/sandbox:node20' };
}

/** How the starter hidden test of a repository is named and run (`<name>` is its workspace folder). */
export function starterTest(
  language: Language,
  name: string,
): { file: string; run: string; format: 'junit' | 'go-test-json'; results: string } {
  switch (language) {
    case 'python':
      return {
        file: `hidden/test_${name.replace(/[^A-Za-z0-9_]/g, '_')}.py`,
        run: `cd ${name} && PYTHONPATH=.pydeps:. python3 -m pytest -q -p no:cacheprovider --junitxml=$TANDEM_RESULTS/${name}.xml $TANDEM_HIDDEN/test_${name.replace(/[^A-Za-z0-9_]/g, '_')}.py`,
        format: 'junit',
        results: `${name}.xml`,
      };
    case 'go': {
      // A package of its own inside the module, removed again so the tree stays as checked out.
      const file = `${name.replace(/[^A-Za-z0-9_]/g, '_')}_hidden_test.go`;
      return {
        file: `hidden/${file}`,
        run: `cd ${name} && mkdir -p tandem_hidden && cp $TANDEM_HIDDEN/${file} tandem_hidden/ && GOMODCACHE=$PWD/.gomodcache go test -json ./... > $TANDEM_RESULTS/${name}.json; s=$?; rm -rf tandem_hidden; exit $s`,
        format: 'go-test-json',
        results: `${name}.json`,
      };
    }
    default:
      return {
        file: `hidden/${name}.test.js`,
        run: `cd ${name} && node --test --test-reporter=junit --test-reporter-destination=$TANDEM_RESULTS/${name}.xml $TANDEM_HIDDEN/${name}.test.js`,
        format: 'junit',
        results: `${name}.xml`,
      };
  }
}
