/**
 * Reads one result file that PR code had every chance to tamper with. The host never follows
 * it anywhere: the path must stay inside the configuration's own results folder with no link on
 * the way, the file is opened without following a final link (O_NOFOLLOW) and without blocking
 * (a FIFO would otherwise hang the evaluation), it must be a regular file (not /dev/zero, a
 * socket or a device), and it is read up to a size cap before a deadline. Anything else is a
 * refusal in Tandem's own words: the group fails, nothing of the file is quoted.
 */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { assertConfined, isStrictlyWithin, UnconfinedPathError } from '../confined-path.ts';

/**
 * Biggest result file read. Parsing cost grows with it: 16 MB of minimal JUnit test cases took
 * 0.3 GB and 8 s here, 64 MB 1.2 GB and 43 s (200 MB took 2.7 GB and crashed).
 */
export const RESULT_FILE_MAX_BYTES = 32 * 1024 * 1024;
const CHUNK = 1024 * 1024;

export type ResultFileRead =
  | { kind: 'text'; text: string }
  | { kind: 'missing' }
  /** The file is there but Tandem will not read it; `reason` is Tandem's, never the file's. */
  | { kind: 'refused'; reason: string };

export interface ResultFileLimits {
  maxBytes: number;
  /** Absolute time (ms since epoch) after which reading stops. */
  deadline: number;
}

/** The cap and a deadline a minute from now; one value shared by all reads of a run keeps one deadline. */
export function defaultResultFileLimits(): ResultFileLimits {
  return { maxBytes: RESULT_FILE_MAX_BYTES, deadline: Date.now() + 60_000 };
}

export async function readResultFile(
  resultsDir: string,
  rel: string,
  limits: ResultFileLimits = defaultResultFileLimits(),
): Promise<ResultFileRead> {
  const file = path.resolve(resultsDir, rel);
  if (!isStrictlyWithin(resultsDir, file)) {
    return { kind: 'refused', reason: `${rel} leaves $TANDEM_RESULTS` };
  }
  // Folders on the way must be real folders: O_NOFOLLOW guards only the last component.
  try {
    await assertConfined(resultsDir, path.dirname(file), 'directory', rel);
  } catch (err) {
    if (!(err instanceof UnconfinedPathError)) throw err;
    return err.reason === 'missing'
      ? { kind: 'missing' }
      : { kind: 'refused', reason: `${rel} lies under a symbolic link or a non-folder` };
  }
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { kind: 'missing' };
    if (code === 'ELOOP' || code === 'EMLINK')
      return { kind: 'refused', reason: `${rel} is a symbolic link` };
    return { kind: 'refused', reason: `${rel} cannot be opened (${code ?? 'error'})` };
  }
  try {
    const st = await handle.stat();
    if (!st.isFile()) return { kind: 'refused', reason: `${rel} is not a regular file` };
    if (st.size > limits.maxBytes) return { kind: 'refused', reason: tooBig(rel, st.size, limits.maxBytes) };
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      if (Date.now() > limits.deadline)
        return { kind: 'refused', reason: `reading ${rel} ran past its deadline` };
      const buf = Buffer.alloc(Math.min(CHUNK, limits.maxBytes + 1 - total));
      const { bytesRead } = await handle.read(buf, 0, buf.length, null);
      if (bytesRead === 0) break;
      chunks.push(buf.subarray(0, bytesRead));
      total += bytesRead;
      // The file grew after stat (a leftover writer): the cap still holds.
      if (total > limits.maxBytes) return { kind: 'refused', reason: tooBig(rel, total, limits.maxBytes) };
    }
    return { kind: 'text', text: Buffer.concat(chunks, total).toString('utf8') };
  } finally {
    await handle.close();
  }
}

function tooBig(rel: string, bytes: number, max: number): string {
  const mb = (n: number) => `${Math.ceil(n / (1024 * 1024))} MB`;
  return `${rel} is larger than Tandem's ${mb(max)} limit for result files (at least ${mb(bytes)})`;
}
