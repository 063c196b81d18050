// shell.openExternal only for http(s) links the app itself made (issue 4 item 7): main registers each link
// when it builds it (menu, help, the environment's site), and the shell opens nothing else. Runtime-free.

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
  private readonly links = new Set<string>();

  /** Registers a link main made; throws for anything that is not a plain http(s) URL. */
  register(url: string): string {
    const key = externalLinkKey(url);
    if (key === null) throw new Error(`Not an http(s) link without credentials: ${url}`);
    this.links.add(key);
    return key;
  }

  isAllowed(url: string): boolean {
    const key = externalLinkKey(url);
    return key !== null && this.links.has(key);
  }
}
