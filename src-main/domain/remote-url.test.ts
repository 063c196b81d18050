import { describe, expect, it } from 'vitest';
import { checkRemoteBaseUrl, isLoopbackHost } from './remote-url.ts';

describe('Remote base URLs', () => {
  it('takes https:// anywhere and http:// only for this computer', () => {
    expect(checkRemoteBaseUrl(' https://API.Example.com/v1/ ')).toEqual({ ok: true, url: 'https://API.Example.com/v1', origin: 'https://api.example.com', insecureLoopback: false });
    for (const url of ['http://localhost:8080', 'http://127.0.0.1:9', 'http://127.1:9', 'http://127.255.0.3', 'http://[::1]:9']) {
      expect(checkRemoteBaseUrl(url)).toMatchObject({ ok: true, insecureLoopback: true });
    }
    // Names and addresses that are not a promise of loopback stay refused.
    for (const url of ['http://localhost.:8080', 'http://0.0.0.0:9', 'http://127.0.0.1.nip.io', 'http://images.example.com', 'http://sub.localhost']) {
      expect(checkRemoteBaseUrl(url)).toMatchObject({ ok: false, code: 'remote_url_not_https' });
    }
    // An IPv6 address that only carries an IPv4 one is judged by that address, whichever way it is written.
    for (const url of ['http://[::ffff:127.0.0.1]:9', 'http://[::ffff:7f00:1]:9', 'http://[::7f00:1]:9', 'http://[::127.0.0.2]', 'http://[0:0:0:0:0:FFFF:7F00:1]']) {
      expect(checkRemoteBaseUrl(url), url).toMatchObject({ ok: true, insecureLoopback: true });
    }
    for (const url of ['http://[::ffff:10.0.0.1]:9', 'http://[::a00:1]:9', 'http://[::ffff:808:808]', 'http://[64:ff9b::7f00:1]', 'http://[::2]']) {
      expect(checkRemoteBaseUrl(url), url).toMatchObject({ ok: false, code: 'remote_url_not_https' });
    }
    expect(checkRemoteBaseUrl('https://user:pw@api.example.com')).toMatchObject({ ok: false, code: 'invalid_input' });
    expect(checkRemoteBaseUrl('ftp://api.example.com')).toMatchObject({ ok: false, code: 'invalid_input' });
    expect(checkRemoteBaseUrl('not a url')).toMatchObject({ ok: false, code: 'invalid_input' });
    expect(isLoopbackHost('LOCALHOST')).toBe(true);
  });
});
