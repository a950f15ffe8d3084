/**
 * A file the user named that cannot be read, said in words (`no such file x`) instead of the
 * system's error code (`ENOENT`).
 */
const WORDS: Record<string, string> = {
  ENOENT: 'no such file',
  EISDIR: 'is a folder, not a file',
  EACCES: 'permission denied reading',
  ENOTDIR: 'a parent of the path is not a folder:',
};

export function noSuchFile(file: string, err: unknown): string {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  if (code === 'EISDIR') return `${file} ${WORDS.EISDIR}`;
  const words = code ? WORDS[code] : undefined;
  return words ? `${words} ${file}` : `cannot read ${file}: ${(err as Error).message ?? String(err)}`;
}
