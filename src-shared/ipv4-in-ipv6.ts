// IPv6 addresses that only carry an IPv4 address: IPv4-mapped (::ffff:a.b.c.d) and the deprecated IPv4-compatible
// (::a.b.c.d) forms. Both main (a Remote base URL's loopback check) and the service (a webhook's resolved address)
// classify them by the IPv4 address inside, so `::7f00:1` is 127.0.0.1 and never counts as a public address.

/** An IPv6 address as the URL parser writes it (lower case, zeros compressed), `::` then one or two groups. */
const CARRIES_IPV4 = /^::(?:ffff:)?([0-9a-f]{1,4}):([0-9a-f]{1,4})$|^::([0-9a-f]{1,4})$/;

/**
 * The dotted IPv4 address an IPv4-mapped or IPv4-compatible IPv6 address carries, or null for anything else
 * (another IPv6 address, `::`, `::1`, an IPv4 address, a name). Takes `[…]` as a URL's hostname has it, or bare.
 */
export function embeddedIpv4(address: string): string | null {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  if (!bare.includes(':')) return null;
  let canonical: string;
  try {
    // The URL parser writes every spelling of an IPv6 address one way (::FFFF:127.0.0.1 → ::ffff:7f00:1).
    canonical = new URL(`http://[${bare}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
  const match = CARRIES_IPV4.exec(canonical);
  if (!match) return null;
  const [high, low] = match[3] === undefined ? [match[1], match[2]] : ['0', match[3]];
  const value = (parseInt(high as string, 16) << 16) + parseInt(low as string, 16);
  // ::1 and :: are IPv6's own loopback and unspecified addresses, not IPv4 ones.
  if (canonical === '::1' || value >>> 0 === 0) return null;
  return [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255].join('.');
}
