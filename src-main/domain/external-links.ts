// The external-link allow-list, decided here once (STYLE.md: no unchecked shell.openExternal): the shell opens
// only plain http(s) links the app itself made (menu, help) or links on the origin of one of its environments.

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

export class ExternalLinks {
  private readonly links: ReadonlySet<string>;

  /** The links main made (menu, help); throws for anything that is not a plain http(s) URL. */
  constructor(links: Iterable<string> = []) {
    const keys = new Set<string>();
    for (const url of links) {
      const key = externalLinkKey(url);
      if (key === null) throw new Error(`Not an http(s) link without credentials: ${url}`);
      keys.add(key);
    }
    this.links = keys;
  }

  isAllowed(url: string): boolean {
    const key = externalLinkKey(url);
    return key !== null && this.links.has(key);
  }
}

/** May the app hand `url` to the OS browser? A link main made, or one on an environment's own origin. */
export function externalLinkAllowed(url: string, made: ExternalLinks, environmentBaseUrls: ReadonlyArray<string | null>): boolean {
  const key = externalLinkKey(url);
  if (key === null) return false;
  if (made.isAllowed(url)) return true;
  const origin = new URL(key).origin;
  return environmentBaseUrls.some((base) => base !== null && externalLinkKey(base) !== null && new URL(base).origin === origin);
}
