/**
 * The Actions runner protocol, the few parts of `@actions/core` the Action needs (we cannot add
 * the dependency, and the protocol is small and documented):
 * - inputs arrive as `INPUT_<NAME>` (upper-cased, spaces → `_`, dashes kept);
 * - outputs are appended to the file at `$GITHUB_OUTPUT` as `name<<DELIM\nvalue\nDELIM`;
 * - the job summary is Markdown appended to the file at `$GITHUB_STEP_SUMMARY`;
 * - annotations, masks and failures are workflow commands on stdout: `::cmd k=v,k=v::message`,
 *   the message escaped (`%` `\r` `\n`) and property values also (`:` `,`).
 * Everything takes an explicit environment and output stream so tests can drive it in-process.
 */
import { randomUUID } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { EOL } from 'node:os';

export type Env = Record<string, string | undefined>;
export type Write = (text: string) => void;

/** The raw value of an input, trimmed; '' when not given (as `core.getInput`). */
export function getInput(env: Env, name: string): string {
  return (env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '').trim();
}

/** Command message escaping (`toCommandValue` + `escapeData` in the toolkit). */
export function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Command property escaping: the message rules plus the separators `:` and `,`. */
export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

export interface AnnotationProperties {
  title?: string;
  file?: string;
  line?: number;
  endLine?: number;
  col?: number;
  endColumn?: number;
}

/** `::command k=v,k=v::message`, with every part escaped. */
export function formatCommand(command: string, properties: Record<string, unknown>, message: string): string {
  const props = Object.entries(properties)
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([k, v]) => `${k}=${escapeProperty(String(v))}`)
    .join(',');
  return `::${command}${props ? ` ${props}` : ''}::${escapeData(message)}`;
}

/** The runner connection of one step: where commands, outputs and the summary go. */
export class Runner {
  constructor(
    private readonly env: Env = process.env,
    private readonly write: Write = (t) => void process.stdout.write(t),
  ) {}

  input(name: string): string {
    return getInput(this.env, name);
  }

  command(command: string, properties: Record<string, unknown>, message: string): void {
    this.write(`${formatCommand(command, properties, message)}${EOL}`);
  }

  info(message: string): void {
    this.write(`${message}${EOL}`);
  }

  annotate(
    level: 'error' | 'warning' | 'notice',
    message: string,
    properties: AnnotationProperties = {},
  ): void {
    this.command(level, { ...properties }, message);
  }

  /** Masks a value in every later log line (`core.setSecret`). */
  mask(secret: string): void {
    if (secret) this.command('add-mask', {}, secret);
  }

  setOutput(name: string, value: string): void {
    const file = this.env.GITHUB_OUTPUT;
    if (!file) {
      // Outside a runner (or a very old one): the deprecated stdout form still works.
      this.command('set-output', { name }, value);
      return;
    }
    const delimiter = `ghadelimiter_${randomUUID()}`;
    // The toolkit refuses values containing the delimiter; a fresh UUID never collides in practice.
    if (name.includes(delimiter) || value.includes(delimiter))
      throw new Error('output value contains the delimiter');
    appendFileSync(file, `${name}<<${delimiter}${EOL}${value}${EOL}${delimiter}${EOL}`, 'utf8');
  }

  /** Appends Markdown to the job summary; logs it instead when there is no summary file. */
  appendSummary(markdown: string): void {
    const file = this.env.GITHUB_STEP_SUMMARY;
    if (!file) {
      this.info(markdown);
      return;
    }
    appendFileSync(file, markdown.endsWith('\n') ? markdown : `${markdown}\n`, 'utf8');
  }

  /** `core.setFailed`: an error annotation and a failing exit code. */
  setFailed(message: string): void {
    process.exitCode = 1;
    this.annotate('error', message);
  }
}
