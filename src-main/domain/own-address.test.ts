import { describe, expect, it } from 'vitest';
import { isOwnLoopbackHost, isOwnLoopbackOrigin } from './own-address.ts';

describe("a loopback server's own address", () => {
  it('is 127.0.0.1 or localhost with its own port, in any case; nothing else', () => {
    for (const host of ['127.0.0.1:8080', 'localhost:8080', 'LOCALHOST:8080']) expect(isOwnLoopbackHost(host, 8080), host).toBe(true);
    for (const host of [undefined, '', '127.0.0.1', '127.0.0.1:8081', 'evil.example:8080', 'localhost.:8080', '127.0.0.2:8080', '[::1]:8080', '127.0.0.1:8080.evil.example']) {
      expect(isOwnLoopbackHost(host, 8080), String(host)).toBe(false);
    }
    for (const origin of ['http://127.0.0.1:8080', 'http://Localhost:8080']) expect(isOwnLoopbackOrigin(origin, 8080), origin).toBe(true);
    for (const origin of ['https://127.0.0.1:8080', 'http://127.0.0.1:8081', 'http://evil.example:8080', 'null', 'http://127.0.0.1:8080/']) {
      expect(isOwnLoopbackOrigin(origin, 8080), origin).toBe(false);
    }
  });
});
