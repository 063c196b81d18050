import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { externalLinkKey } from '../domain/external-links.ts';
import { APP_INDEX_URL, appRequestPath, rendererAssetPath } from './app-request.ts';
import { isTrustedRendererUrl } from './sender-policy.ts';

const rendererDir = join('/opt', 'Image Studio', 'resources', 'app.asar', 'out', 'renderer');
const indexFile = join(rendererDir, 'index.html');

describe('sender frame policy', () => {
  it('trusts the app page app://studio/index.html, with or without a hash or query', () => {
    expect(isTrustedRendererUrl(APP_INDEX_URL, {})).toBe(true);
    expect(isTrustedRendererUrl(APP_INDEX_URL + '#/gallery', {})).toBe(true);
    expect(isTrustedRendererUrl(APP_INDEX_URL + '?x=1', {})).toBe(true);
  });

  it('refuses the built index.html by file://, other app:// pages and hosts, web pages and junk', () => {
    expect(isTrustedRendererUrl(pathToFileURL(indexFile).href, {})).toBe(false);
    expect(isTrustedRendererUrl(pathToFileURL(indexFile).href + '#/gallery', {})).toBe(false);
    expect(isTrustedRendererUrl('app://studio/other.html', {})).toBe(false);
    expect(isTrustedRendererUrl('app://evil/index.html', {})).toBe(false);
    expect(isTrustedRendererUrl('app://user:pw@studio/index.html', {})).toBe(false);
    expect(isTrustedRendererUrl('studio-image://studio/index.html', {})).toBe(false);
    expect(isTrustedRendererUrl('https://evil.example/', {})).toBe(false);
    expect(isTrustedRendererUrl('about:blank', {})).toBe(false);
    expect(isTrustedRendererUrl('not a url', {})).toBe(false);
  });

  it('trusts the dev server origin only when one is configured', () => {
    expect(isTrustedRendererUrl('http://localhost:5173/', {})).toBe(false);
    expect(isTrustedRendererUrl('http://localhost:5173/', { devServerUrl: 'http://localhost:5173' })).toBe(true);
    expect(isTrustedRendererUrl('http://localhost:5174/', { devServerUrl: 'http://localhost:5173' })).toBe(false);
  });
});

describe('the app:// protocol serves only the renderer folder', () => {
  it('maps app://studio/… to files inside the renderer folder', () => {
    expect(appRequestPath(APP_INDEX_URL, rendererDir)).toBe(indexFile);
    expect(appRequestPath('app://studio/assets/index-abc.js?v=1#x', rendererDir)).toBe(join(rendererDir, 'assets', 'index-abc.js'));
    expect(appRequestPath('app://studio/assets/a%20b.css', rendererDir)).toBe(join(rendererDir, 'assets', 'a b.css'));
  });

  it('refuses traversal, other hosts and schemes, the folder itself and bad encodings', () => {
    // A URL's own `..` segments are resolved by the URL parser (as Chromium does) and stay at the root.
    expect(appRequestPath('app://studio/../main/index.js', rendererDir)).toBe(join(rendererDir, 'main', 'index.js'));
    expect(appRequestPath('app://studio/%2e%2e/%2e%2e/main/index.js', rendererDir)).toBe(join(rendererDir, 'main', 'index.js'));
    for (const url of [
      'app://studio/assets/%2e%2e%2f%2e%2e%2fmain%2findex.js',
      'app://studio/..%2fmain/index.js',
      'app://studio/%2e%2e%5cmain%5cindex.js',
      'app://studio/',
      'app://studio/x%00.js',
      'app://studio/%E0%A4%A',
      'app://other/index.html',
      'app://user:pw@studio/index.html',
      pathToFileURL(indexFile).href,
      'https://studio/index.html',
      'not a url',
    ]) {
      expect(appRequestPath(url, rendererDir), url).toBeNull();
    }
    expect(rendererAssetPath(rendererDir, '/../renderer-evil/x.js')).toBeNull();
    expect(rendererAssetPath(rendererDir, '/etc/passwd')).toBe(join(rendererDir, 'etc', 'passwd'));
  });
});

describe('external links', () => {
  it('reaches the OS only as plain http(s) without credentials', () => {
    expect(externalLinkKey('https://EXAMPLE.com/help?x=1')).toBe('https://example.com/help?x=1');
    expect(externalLinkKey('file:///etc/passwd')).toBeNull();
    expect(externalLinkKey('https://user:pw@example.com/')).toBeNull();
    expect(externalLinkKey('javascript:alert(1)')).toBeNull();
    expect(externalLinkKey('smb://host/share')).toBeNull();
  });
});
