import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { externalLinkKey } from '../domain/external-links.ts';
import { isRendererAsset, isTrustedRendererUrl } from './sender-policy.ts';

const rendererDir = join('/opt', 'Image Studio', 'resources', 'app.asar', 'out', 'renderer');
const indexFile = join(rendererDir, 'index.html');

describe('sender frame policy', () => {
  it('trusts the built index.html, with or without a hash or query', () => {
    const url = pathToFileURL(indexFile).href;
    expect(isTrustedRendererUrl(url, { indexFile })).toBe(true);
    expect(isTrustedRendererUrl(url + '#/gallery', { indexFile })).toBe(true);
  });

  it('refuses other files, other hosts of file:, web pages and junk', () => {
    expect(isTrustedRendererUrl(pathToFileURL(join(rendererDir, 'other.html')).href, { indexFile })).toBe(false);
    expect(isTrustedRendererUrl(pathToFileURL('/tmp/index.html').href, { indexFile })).toBe(false);
    expect(isTrustedRendererUrl('file://evil.example/opt/Image%20Studio/resources/app.asar/out/renderer/index.html', { indexFile })).toBe(false);
    expect(isTrustedRendererUrl('https://evil.example/', { indexFile })).toBe(false);
    expect(isTrustedRendererUrl('about:blank', { indexFile })).toBe(false);
    expect(isTrustedRendererUrl('not a url', { indexFile })).toBe(false);
  });

  it('trusts the dev server origin only when one is configured', () => {
    expect(isTrustedRendererUrl('http://localhost:5173/', { indexFile })).toBe(false);
    expect(isTrustedRendererUrl('http://localhost:5173/', { indexFile, devServerUrl: 'http://localhost:5173' })).toBe(true);
    expect(isTrustedRendererUrl('http://localhost:5174/', { indexFile, devServerUrl: 'http://localhost:5173' })).toBe(false);
  });

  it('lets the renderer load files only from its own folder', () => {
    expect(isRendererAsset(pathToFileURL(join(rendererDir, 'assets', 'index.js')).href, rendererDir)).toBe(true);
    expect(isRendererAsset(pathToFileURL(join(rendererDir, '..', 'main', 'index.js')).href, rendererDir)).toBe(false);
    expect(isRendererAsset(pathToFileURL(rendererDir + '-evil/x.js').href, rendererDir)).toBe(false);
    expect(isRendererAsset(pathToFileURL('/etc/passwd').href, rendererDir)).toBe(false);
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
