// The renderer's Content-Security-Policy, from one list of directives. Runtime-free, so the harness and the
// Vite config can import it too.
//
// - The <meta> in src-renderer/index.html carries META_CONTENT_SECURITY_POLICY word for word
//   (content-security-policy.test.ts fails when the two differ). In Electron the page is app://studio/index.html
//   (app-protocol.ts), whose origin 'self' names: the bundle's scripts and styles need no other source.
// - Both hosts (the Electron session and the browser harness) also send CONTENT_SECURITY_POLICY as a header:
//   the same directives plus the ones a <meta> cannot carry (frame-ancestors is ignored there, with a warning).
// - The dev server (electron-vite dev) rewrites the <meta> to DEV_CONTENT_SECURITY_POLICY: Vite injects CSS
//   as <style> elements. Never in a build.
//
// What the renderer really loads and connects to (checked in e2e/csp.spec.ts with no violation reported):
// - scripts and styles: the bundle's own files (the harness adds /harness/api.js, same origin). React's style
//   props are CSSOM writes, which style-src does not govern, and no library injects <style>: no 'unsafe-inline'.
// - images: studio-image:// in Electron (DESIGN.md §2 rule 5), /studio-image/… on the harness's own origin;
//   no data: or blob: URL anywhere.
// - connections: none in Electron (IPC through the preload); the harness's POST /ipc/<channel> and its
//   WebSocket /events, both on the page's own origin, which 'self' covers (CSP3 matches ws: to http: 'self').
//   No other loopback port: a page script cannot reach the local service or anything else on this machine.
export const CSP_DIRECTIVES = [
  ['default-src', ["'self'"]],
  ['script-src', ["'self'"]],
  ['style-src', ["'self'"]],
  ['img-src', ["'self'", 'studio-image:']],
  ['connect-src', ["'self'"]],
  ['object-src', ["'none'"]],
  ['base-uri', ["'none'"]],
  ['form-action', ["'none'"]],
  ['frame-ancestors', ["'none'"]],
] as const satisfies ReadonlyArray<readonly [string, readonly string[]]>;

/** Directives CSP ignores when delivered in a <meta> element (CSP3 §4.2.1, §6.4.2, sandbox): header only. */
export const HEADER_ONLY_DIRECTIVES: ReadonlySet<string> = new Set(['frame-ancestors', 'report-uri', 'sandbox']);

type Directives = ReadonlyArray<readonly [string, readonly string[]]>;

export function serializePolicy(directives: Directives): string {
  return directives.map(([name, sources]) => [name, ...sources].join(' ')).join('; ');
}

/** Parses a policy into directive name → sources (names lower-cased, as CSP compares them). */
export function parsePolicy(policy: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of policy.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/).filter(Boolean);
    if (name && !out.has(name.toLowerCase())) out.set(name.toLowerCase(), sources);
  }
  return out;
}

/** The header both hosts send. */
export const CONTENT_SECURITY_POLICY = serializePolicy(CSP_DIRECTIVES);

/** What src-renderer/index.html's <meta http-equiv="Content-Security-Policy"> holds, exactly. */
export const META_CONTENT_SECURITY_POLICY = serializePolicy(CSP_DIRECTIVES.filter(([name]) => !HEADER_ONLY_DIRECTIVES.has(name)));

/**
 * The dev server's <meta> policy: the build's, with style-src 'unsafe-inline' for the <style> elements Vite
 * injects CSS with. Scripts need nothing more: the React-refresh preamble, Vite's one inline script, is put
 * before the <meta>, and a <meta> policy governs only what comes after it; HMR's WebSocket is same-origin.
 */
export const DEV_CONTENT_SECURITY_POLICY = serializePolicy(
  CSP_DIRECTIVES.filter(([name]) => !HEADER_ONLY_DIRECTIVES.has(name)).map(([name, sources]) =>
    name === 'style-src' ? [name, [...sources, "'unsafe-inline'"]] : [name, sources],
  ),
);

const META_TAG = /<meta\b[^>]*http-equiv\s*=\s*["']Content-Security-Policy["'][^>]*>/gi;

/** The content of every CSP <meta> in an HTML text (attribute values unescaped for &quot; &#39; &amp;). */
export function metaPolicies(html: string): string[] {
  const out: string[] = [];
  for (const tag of html.match(META_TAG) ?? []) {
    const content = /\bcontent\s*=\s*(?:"([^"]*)"|'([^']*)')/i.exec(tag);
    const raw = content?.[1] ?? content?.[2];
    if (raw !== undefined) out.push(raw.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&').replace(/\s+/g, ' ').trim());
  }
  return out;
}

/** Replaces the content of the CSP <meta> (the dev server's transform); throws when there is none. */
export function replaceMetaPolicy(html: string, policy: string): string {
  let replaced = 0;
  const out = html.replace(META_TAG, (tag) => {
    replaced++;
    return tag.replace(/\bcontent\s*=\s*(?:"[^"]*"|'[^']*')/i, `content="${policy}"`);
  });
  if (replaced !== 1) throw new Error(`expected one Content-Security-Policy <meta>, found ${replaced}`);
  return out;
}
