/**
 * Content-addressed cache of configuration results. A key covers everything a result depends
 * on: the tree of every repository state, the prepared dependency keys, the suite (with its
 * hidden files), the image id and the attempt number. After a push to one of N targets, every
 * configuration with that target at base keeps its key and is reused.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type ConfigurationRun, configurationRunSchema } from '../../core/run.schema.ts';

export interface ResultKeyParts {
  configurationId: string;
  attempt: number;
  /** Per repository in the workspace: its folder name, state tree and prepared-deps key. */
  states: Array<{ name: string; tree: string; deps?: string }>;
  suiteHash: string;
  imageId: string;
  sandbox: string;
}

/**
 * Bumped when what a run records from the same output changes (issue 31: groups that ran no test
 * are `broken`; go build failures among other packages' events, pytest collection errors and TAP
 * streams without a plan are read), so a result cached by an older Tandem is not graded anew.
 */
const RESULT_FORMAT = 2;

export function resultKey(parts: ResultKeyParts): string {
  const canonical = JSON.stringify({
    format: RESULT_FORMAT,
    ...parts,
    states: [...parts.states].sort((a, b) => a.name.localeCompare(b.name)),
  });
  return createHash('sha256').update(canonical).digest('hex');
}

export class ResultCache {
  /** `warn` hears of an entry that could not be read: it is ignored, and the run rewrites it. */
  constructor(
    private readonly dir: string,
    private readonly warn: (message: string) => void = () => {},
  ) {}

  private file(key: string): string {
    return path.join(this.dir, key.slice(0, 2), `${key}.json`);
  }

  async get(key: string): Promise<ConfigurationRun | undefined> {
    let text: string;
    try {
      text = await readFile(this.file(key), 'utf8');
    } catch {
      return undefined;
    }
    // A corrupt or old-format entry is a miss, never an error: the configuration runs again and
    // `put` replaces the entry.
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      this.warn(
        `ignoring a corrupt result-cache entry ${this.file(key)} (not JSON); it is rewritten after the run`,
      );
      return undefined;
    }
    const parsed = configurationRunSchema.safeParse(json);
    if (!parsed.success)
      this.warn(
        `ignoring a result-cache entry ${this.file(key)} of another format; it is rewritten after the run`,
      );
    return parsed.success ? parsed.data : undefined;
  }

  /** Results with an infrastructure error are never stored: they say nothing about the code. */
  async put(key: string, run: ConfigurationRun): Promise<void> {
    if (run.infraError) return;
    const file = this.file(key);
    await mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(tmp, JSON.stringify({ ...run, cached: false }));
    await rename(tmp, file);
  }
}
