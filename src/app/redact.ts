/** Strips credentials from text that may leave the App (tokens in clone URLs). */
export function redactSecrets(text: string): string {
  return text
    .replace(/(\/\/)[^/@\s:]+:[^/@\s]+@/g, '$1***@')
    .replace(/\b(ghs|ghp|gho|ghu)_[A-Za-z0-9]+/g, '$1_***');
}

/** Replaces the suite's folder and hidden file names in an engine message: they stay private. */
export function scrubHidden(text: string, suiteRoot: string, hidden: readonly string[]): string {
  let out = text.replaceAll(suiteRoot, '<suite>');
  for (const h of [...hidden].sort((a, b) => b.length - a.length)) {
    if (h.length > 0) out = out.replaceAll(h, '<hidden>');
    const base = h.split('/').filter(Boolean).pop();
    if (base && base.length > 2) out = out.replaceAll(base, '<hidden>');
  }
  return out;
}
