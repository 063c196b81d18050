import { describe, expect, it } from 'vitest';
import { embeddedIpv4 } from './ipv4-in-ipv6.ts';

describe('the IPv4 address inside an IPv6 one', () => {
  it('reads IPv4-mapped and IPv4-compatible forms however they are written, bracketed or bare', () => {
    // Each address, then the IPv4 address it carries.
    const carried = new Map(
      Object.entries({
        '::7f00:1': '127.0.0.1',
        '::ffff:127.0.0.1': '127.0.0.1',
        '::ffff:7f00:1': '127.0.0.1',
        '[::ffff:7f00:1]': '127.0.0.1',
        '::127.0.0.1': '127.0.0.1',
        '0:0:0:0:0:FFFF:7F00:0001': '127.0.0.1',
        '::a00:1': '10.0.0.1',
        '::ffff:a9fe:a9fe': '169.254.169.254',
        '::8.8.8.8': '8.8.8.8',
        '::ffff:1': '255.255.0.1',
      }),
    );
    for (const [address, ipv4] of carried) expect(embeddedIpv4(address), address).toBe(ipv4);
  });

  it('gives null for every other address and for names', () => {
    for (const other of ['::1', '::', '[::1]', '2001:db8::1', '64:ff9b::7f00:1', '::ffff:0:7f00:1', 'fe80::1%eth0', '127.0.0.1', 'localhost', '', 'not:an:address']) {
      expect(embeddedIpv4(other), other).toBeNull();
    }
  });
});
