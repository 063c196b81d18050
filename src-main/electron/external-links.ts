// shell.openExternal only for http(s) links the app itself made (DESIGN.md §2 rule 4; STYLE.md: no unchecked
// shell.openExternal): main lists the links it made, and the shell opens nothing else. Runtime-free.

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
