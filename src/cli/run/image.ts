/**
 * `tandem image build`: runs the image scripts the package ships (`scripts/build-sandbox-image.sh`
 * for Node, `scripts/build-lang-images.sh` for Python and Go; the same ones a checkout's `npm test`
 * runs), so an installed CLI builds its images without a checkout. The scripts copy the host's
 * toolchains into an image: no registry is needed.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { InfraError, InputError } from '../../core/errors.ts';

/** src/cli/run and build/cli/run sit at the same depth under the package root. */
const SCRIPTS = fileURLToPath(new URL('../../../scripts/', import.meta.url));

const KINDS = {
  node: { script: 'build-sandbox-image.sh', images: 'tandem/sandbox:node20', only: undefined },
  python: { script: 'build-lang-images.sh', images: 'tandem/sandbox:python3', only: 'python3' },
  go: { script: 'build-lang-images.sh', images: 'tandem/sandbox:go', only: 'go' },
} as const;
type Kind = keyof typeof KINDS;

const isKind = (k: string): k is Kind => Object.hasOwn(KINDS, k);

export async function imageBuildCommand(kind: string, raw: { force?: boolean }): Promise<number> {
  if (kind !== 'all' && !isKind(kind))
    throw new InputError(`argument kind: expected node, python, go or all, got "${kind}"`);
  const kinds: Kind[] = kind === 'all' ? ['node', 'python', 'go'] : [kind];
  for (const k of kinds) await buildOne(k, raw.force === true);
  return 0;
}

function buildOne(kind: Kind, force: boolean): Promise<void> {
  const { script, images, only } = KINDS[kind];
  const file = `${SCRIPTS}${script}`;
  if (!existsSync(file))
    throw new InfraError('engine', `the image script ${file} is missing: reinstall the tandem package`);
  process.stderr.write(`tandem: building ${images}…\n`);
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [file, ...(force ? ['--force'] : [])], {
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, ...(only ? { TANDEM_LANG_IMAGES: only } : {}) },
    });
    child.on('error', (e) =>
      reject(new InfraError('engine', `could not run bash for ${script}: ${e.message}`)),
    );
    child.on('close', (code) => {
      if (code === 0) resolve();
      else
        reject(
          new InfraError(
            'engine',
            `building ${images} failed (${script} exited ${code}); is Docker running (\`docker info\`) and is the toolchain installed on this host?`,
          ),
        );
    });
  });
}
