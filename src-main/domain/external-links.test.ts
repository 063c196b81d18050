import { describe, expect, it } from 'vitest';
import { externalLinkAllowed } from './external-links.ts';

describe('the external-link allow-list', () => {
  const bases = ['http://127.0.0.1:8420', 'https://api.example.com/v1', null];

  it.each([
    ['a page on an environment’s origin', 'https://api.example.com/console', true],
    ['the local service', 'http://127.0.0.1:8420/admin', true],
    ['a site that is no environment', 'https://help.example.com/other', false],
    ['another port of loopback', 'http://127.0.0.1:9999/', false],
    ['credentials in the URL', 'https://user:pw@api.example.com/', false],
    ['a file URL', 'file:///etc/passwd', false],
    ['javascript', 'javascript:alert(1)', false],
    ['not a URL', 'api.example.com', false],
  ])('%s: %s', (_what, url, allowed) => {
    expect(externalLinkAllowed(url, bases)).toBe(allowed);
  });
});
