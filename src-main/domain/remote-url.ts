// Where a Remote key may go (docs/main-process.md "Keys are bound to an origin"). A Remote base URL is
// https://; plain http:// only reaches this computer (localhost, 127.0.0.0/8, [::1]) and is shown with a
// warning. A key is bound to the origin it was entered for and is never sent to another.
import { embeddedIpv4 } from '../../src-shared/ipv4-in-ipv6.ts';

export type RemoteUrlCheck =
  | { ok: true; url: string; origin: string; insecureLoopback: boolean }
  | { ok: false; code: 'remote_url_not_https' | 'invalid_input'; params: Record<string, string> };

/**
 * Whether `hostname` (as URL gives it: IPv6 in brackets) names this computer. An IPv6 address that carries an
 * IPv4 one (`[::ffff:7f00:1]`, `[::7f00:1]`) is judged by that IPv4 address.
 */
export function isLoopbackHost(hostname: string): boolean {
  // No trailing-dot tolerance: `localhost.` is a DNS name, not a promise of loopback.
  const host = embeddedIpv4(hostname) ?? hostname.toLowerCase();
  if (host === 'localhost' || host === '[::1]') return true;
  const parts = host.split('.');
  return parts.length === 4 && parts[0] === '127' && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255);
}

/** Checks a Remote base URL and gives its canonical form (no trailing slash) and origin. */
export function checkRemoteBaseUrl(raw: string): RemoteUrlCheck {
  const text = raw.trim().replace(/\/+$/, '');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, code: 'invalid_input', params: { field: 'baseUrl', why: 'not a URL' } };
  }
  if (url.username !== '' || url.password !== '') return { ok: false, code: 'invalid_input', params: { field: 'baseUrl', why: 'must not hold a user name or password' } };
  if (url.protocol === 'https:') return { ok: true, url: text, origin: url.origin, insecureLoopback: false };
  if (url.protocol === 'http:') {
    if (isLoopbackHost(url.hostname)) return { ok: true, url: text, origin: url.origin, insecureLoopback: true };
    return { ok: false, code: 'remote_url_not_https', params: { url: url.origin } };
  }
  return { ok: false, code: 'invalid_input', params: { field: 'baseUrl', why: 'must be an https:// URL' } };
}

/** The origin of a URL, or null when it is not one. */
export function originOf(url: string | null): string | null {
  if (!url) return null;
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}
