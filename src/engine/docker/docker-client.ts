import type { Duplex, Writable } from 'node:stream';
import Docker from 'dockerode';
import { errorText } from '../../core/error-text.ts';
import { InfraError } from '../../core/errors.ts';
import type { OutputTail } from '../results/output-tail.ts';

/** How to get an engine on this kind of machine; repeated in every "not reachable" error. */
export const START_ENGINE_HINT =
  'start it (`sudo systemctl start docker`, or `npm run docker:start` in a Tandem checkout), or set DOCKER_HOST to a running engine';

/** dockerode honours DOCKER_HOST / DOCKER_CERT_PATH itself; options override them. */
export function createDockerClient(options?: Docker.DockerOptions): Docker {
  return new Docker(options);
}

const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOENT',
  'EACCES',
  'EHOSTUNREACH',
  'ETIMEDOUT',
  'ECONNRESET',
  'EPIPE',
]);

export function errorCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** HTTP status of a failed engine API call (dockerode puts it on the error). */
export function statusCode(err: unknown): number | undefined {
  const code = (err as { statusCode?: unknown } | null)?.statusCode;
  return typeof code === 'number' ? code : undefined;
}

export function isUnreachable(err: unknown): boolean {
  const code = errorCode(err);
  return code !== undefined && UNREACHABLE.has(code);
}

function describeEndpoint(docker: Docker): string {
  const modem = docker.modem as { socketPath?: unknown; host?: unknown; port?: unknown };
  if (typeof modem.socketPath === 'string') return modem.socketPath;
  return `${String(modem.host ?? 'localhost')}:${String(modem.port ?? '')}`;
}

function messageOf(err: unknown): string {
  const json = (err as { json?: { message?: unknown } } | null)?.json;
  if (json && typeof json.message === 'string') return json.message;
  return errorText(err);
}

/** `connect ENOENT`: the failing call and its code, as Node names them. */
function causeOf(err: unknown): string {
  const syscall = (err as { syscall?: unknown } | null)?.syscall;
  const code = errorCode(err) ?? 'unknown error';
  return typeof syscall === 'string' ? `${syscall} ${code}` : code;
}

/** The cause first (where, which error), then what was being done, then how to fix it. */
function unreachableMessage(docker: Docker, err: unknown, doing?: string): string {
  return `Docker is not reachable at ${describeEndpoint(docker)} (${causeOf(err)})${doing ? ` while ${doing}` : ''}: ${START_ENGINE_HINT}`;
}

/**
 * Before a run: an engine that cannot be reached fails at once with one message (the CLI's), not
 * as an infrastructure error in every configuration of the matrix.
 */
export async function assertEngineReachable(docker: Docker = createDockerClient()): Promise<void> {
  try {
    await docker.ping();
  } catch (err) {
    // Any other failure (an old engine, a proxy's answer) is left to the run to report in context.
    if (isUnreachable(err)) throw new InfraError('engine', unreachableMessage(docker, err));
  }
}

/** Wraps any engine failure as InfraError('engine'), saying how to start the engine when it is down. */
export function engineError(docker: Docker, err: unknown, doing: string, configuration?: string): InfraError {
  if (err instanceof InfraError) return err;
  const details = configuration ? { configuration } : {};
  if (isUnreachable(err)) {
    return new InfraError('engine', unreachableMessage(docker, err, doing), details);
  }
  return new InfraError('engine', `Docker engine failed while ${doing}: ${messageOf(err)}`, details);
}

export interface ExecOptions {
  cmd: string[];
  env?: string[];
  workingDir?: string;
  /** `uid:gid`; the container's user (root in the sandbox) when absent. */
  user?: string;
}

/** A started `docker exec` whose output goes to a tail. */
export interface RunningExec {
  /** Resolves when the output stream ends (the process exited, or the container died). */
  ended: Promise<void>;
  /** Stop waiting for output (the process itself is not touched). */
  detach(): void;
  /** Exit code once ended; null if the engine does not know it (container gone). */
  exitCode(): Promise<number | null>;
}

/** Registers a `docker exec` with the engine; nothing runs until `startExec` starts it. */
export function createExec(container: Docker.Container, opts: ExecOptions): Promise<Docker.Exec> {
  return container.exec({
    Cmd: opts.cmd,
    Env: opts.env,
    WorkingDir: opts.workingDir,
    ...(opts.user ? { User: opts.user } : {}),
    AttachStdout: true,
    AttachStderr: true,
    AttachStdin: false,
    Tty: false,
  });
}

/**
 * Starts a command (`created`: one registered ahead by `createExec`). `stdout`, when given, takes
 * the command's stdout instead of the tail (stderr still goes there).
 */
export async function startExec(
  docker: Docker,
  container: Docker.Container,
  opts: ExecOptions | { created: Docker.Exec },
  tail: OutputTail,
  stdout?: Writable,
): Promise<RunningExec> {
  const exec = 'created' in opts ? opts.created : await createExec(container, opts);
  const stream: Duplex = await exec.start({ hijack: true, stdin: false });
  const sink = tail.writable();
  docker.modem.demuxStream(stream, stdout ?? sink, sink);
  const ended = new Promise<void>((resolve) => {
    stream.once('end', resolve);
    stream.once('close', resolve);
    // A broken stream ends the step the same way; the exit code tells the rest.
    stream.once('error', () => resolve());
  });
  return {
    ended,
    detach: () => stream.destroy(),
    exitCode: async () => {
      // The stream can end a moment before the engine records the exit code.
      for (let i = 0; i < 40; i++) {
        const info = await exec.inspect();
        if (!info.Running && info.ExitCode !== null) return info.ExitCode;
        if (!info.Running && i > 2) return null;
        await new Promise((r) => setTimeout(r, 25));
      }
      return null;
    },
  };
}

/** Runs a short command to completion and returns its exit code and output (for housekeeping). */
export async function execToEnd(
  docker: Docker,
  container: Docker.Container,
  cmd: string[],
  tail: OutputTail,
): Promise<number | null> {
  const run = await startExec(docker, container, { cmd }, tail);
  await run.ended;
  return run.exitCode();
}

/** Image id for the result cache; a missing image is pulled once only when it could be on a registry. */
export async function resolveImageId(docker: Docker, image: string): Promise<string> {
  const inspect = async () => (await docker.getImage(image).inspect()).Id;
  try {
    return await inspect();
  } catch (err) {
    if (statusCode(err) !== 404) throw engineError(docker, err, `inspecting image "${image}"`);
  }
  if (looksPullable(image)) {
    try {
      const stream = await docker.pull(image);
      await new Promise<void>((resolve, reject) => {
        // No registry may be reachable at all: do not hang on it.
        const timer = setTimeout(() => reject(new Error('pull timed out')), PULL_TIMEOUT_MS);
        docker.modem.followProgress(stream, (err) => {
          clearTimeout(timer);
          if (err) reject(err);
          else resolve();
        });
      });
      return await inspect();
    } catch {
      // Reported as missing below, with how to build it.
    }
  }
  throw missingImageError(image);
}

const PULL_TIMEOUT_MS = 300_000;

export function missingImageError(image: string): InfraError {
  const how = image.startsWith('tandem/sandbox')
    ? '`tandem image build` (node; `tandem image build python` or `go` for the language images)'
    : `\`docker build -t ${image} <dir>\` (or \`docker pull ${image}\` where a registry is reachable)`;
  return new InfraError('image-missing', `image "${image}" is not available locally; build it with ${how}`);
}

/** Our own images (tandem/...) and bare ids are never on a registry; anything else may be. */
function looksPullable(image: string): boolean {
  return !image.startsWith('tandem/') && !/^(sha256:)?[0-9a-f]{12,64}$/.test(image);
}
