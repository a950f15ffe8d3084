/** Strips credentials from text that may leave the App (tokens in clone URLs). */
export function redactSecrets(text: string): string {
  return text.replace(/(\/\/)[^/@\s:]+:[^/@\s]+@/g, '$1***@').replace(/\b(ghs|ghp|gho|ghu)_[A-Za-z0-9]+/g, '$1_***');
}
