// The external-link allow-list, decided here once (STYLE.md: no unchecked shell.openExternal): the shell opens
// only plain http(s) links on the origin of one of the app's environments (the Local service, the Remote API).

/** The normalised form of an http(s) URL without credentials, or null for anything else. */
export function externalLinkKey(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
  if (parsed.username !== '' || parsed.password !== '') return null;
  return parsed.href;
}

/** May the app hand `url` to the OS browser? Only a plain http(s) link on an environment's own origin. */
export function externalLinkAllowed(url: string, environmentBaseUrls: ReadonlyArray<string | null>): boolean {
  const key = externalLinkKey(url);
  if (key === null) return false;
  const origin = new URL(key).origin;
  return environmentBaseUrls.some((base) => base !== null && externalLinkKey(base) !== null && new URL(base).origin === origin);
}
