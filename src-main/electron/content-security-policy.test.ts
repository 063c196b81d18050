// The renderer's CSP has one source (content-security-policy.ts): index.html's <meta> must say exactly what
// the module says, and both must hold every directive the renderer's security rests on.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CONTENT_SECURITY_POLICY,
  CSP_DIRECTIVES,
  DEV_CONTENT_SECURITY_POLICY,
  HEADER_ONLY_DIRECTIVES,
  META_CONTENT_SECURITY_POLICY,
  metaPolicies,
  parsePolicy,
  replaceMetaPolicy,
} from './content-security-policy.ts';

const INDEX_HTML = resolve(import.meta.dirname, '../../src-renderer/index.html');

/** What each directive must be, exactly (sources in any order). */
const REQUIRED: Record<string, string[]> = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'studio-image:'],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'none'"],
};

function expectRequired(policy: Map<string, string[]>, where: string): void {
  for (const [name, sources] of Object.entries(REQUIRED)) {
    expect(policy.get(name)?.slice().sort(), `${where}: ${name}`).toEqual(sources.slice().sort());
  }
}

/** A source that lets a page reach more than one fixed origin: a wildcard port or host, a bare scheme, or *. */
function isWildcard(source: string): boolean {
  return source === '*' || /:\*(\/|$)/.test(source) || /\/\/\*/.test(source) || /^[a-z][a-z0-9+.-]*:$/i.test(source);
}

describe('the renderer CSP', () => {
  const html = readFileSync(INDEX_HTML, 'utf8');

  it('index.html has one CSP <meta>, and it is META_CONTENT_SECURITY_POLICY word for word', () => {
    const metas = metaPolicies(html);
    expect(metas).toHaveLength(1);
    expect(metas[0]).toBe(META_CONTENT_SECURITY_POLICY);
  });

  it('the <meta> carries every required directive and nothing a <meta> cannot carry', () => {
    const meta = parsePolicy(metaPolicies(html)[0] ?? '');
    expectRequired(meta, 'meta');
    for (const name of HEADER_ONLY_DIRECTIVES) expect(meta.has(name), name).toBe(false);
    // Nothing inline or evaluated, in any directive.
    for (const [name, sources] of meta) {
      for (const bad of ["'unsafe-inline'", "'unsafe-eval'", "'unsafe-hashes'", "'wasm-unsafe-eval'"]) expect(sources, name).not.toContain(bad);
    }
  });

  it('connect-src and img-src name no wildcard port, host or scheme-wide source (data:, blob:, http:)', () => {
    for (const policy of [META_CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY]) {
      const parsed = parsePolicy(policy);
      for (const source of parsed.get('connect-src') ?? []) expect(isWildcard(source), `connect-src ${source}`).toBe(false);
      // studio-image: is the app's own protocol, served only by main from its image cache.
      for (const source of parsed.get('img-src') ?? []) if (source !== 'studio-image:') expect(isWildcard(source), `img-src ${source}`).toBe(false);
    }
    expect(META_CONTENT_SECURITY_POLICY).not.toMatch(/127\.0\.0\.1|localhost|:\*/);
  });

  it('the header is the same directives plus frame-ancestors, which only a header can carry', () => {
    const header = parsePolicy(CONTENT_SECURITY_POLICY);
    const meta = parsePolicy(META_CONTENT_SECURITY_POLICY);
    expectRequired(header, 'header');
    expect(header.get('frame-ancestors')).toEqual(["'none'"]);
    for (const [name, sources] of meta) expect(header.get(name), name).toEqual(sources);
    expect([...header.keys()].filter((name) => !meta.has(name))).toEqual(['frame-ancestors']);
    expect(header.size).toBe(CSP_DIRECTIVES.length);
  });

  it('the dev server relaxes only style-src (Vite injects CSS as <style>), and its transform keeps the rest of the page', () => {
    const dev = parsePolicy(DEV_CONTENT_SECURITY_POLICY);
    const meta = parsePolicy(META_CONTENT_SECURITY_POLICY);
    expect(dev.get('style-src')).toEqual([...(meta.get('style-src') ?? []), "'unsafe-inline'"]);
    for (const [name, sources] of meta) if (name !== 'style-src') expect(dev.get(name), name).toEqual(sources);
    const transformed = replaceMetaPolicy(html, DEV_CONTENT_SECURITY_POLICY);
    expect(metaPolicies(transformed)).toEqual([DEV_CONTENT_SECURITY_POLICY]);
    expect(transformed.replace(DEV_CONTENT_SECURITY_POLICY, META_CONTENT_SECURITY_POLICY)).toBe(html);
    expect(() => replaceMetaPolicy('<html><head></head></html>', DEV_CONTENT_SECURITY_POLICY)).toThrow(/found 0/);
  });

  it('parses what browsers parse: names case-insensitively, the first of a repeated directive wins', () => {
    const parsed = parsePolicy("Default-Src 'self';  img-src a:  b: ; img-src c:;;");
    expect(parsed.get('default-src')).toEqual(["'self'"]);
    expect(parsed.get('img-src')).toEqual(['a:', 'b:']);
    expect(isWildcard('ws://127.0.0.1:*')).toBe(true);
    expect(isWildcard('http://*.example')).toBe(true);
    expect(isWildcard('data:')).toBe(true);
    expect(isWildcard("'self'")).toBe(false);
    expect(isWildcard('https://api.example:443')).toBe(false);
  });
});
