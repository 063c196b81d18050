import { describe, expect, it } from 'vitest';
import { checkResolvedAddress, checkWebhookUrlText, type WebhookUrlRule } from './webhook-url.ts';

const strict = { allowLoopback: false };
const loopback = { allowLoopback: true };

describe('webhook URL text rules (spec §6 URL requirements)', () => {
  const refused: Array<[string, WebhookUrlRule]> = [
    ['not a url', 'not_a_url'],
    ['/relative/path', 'not_a_url'],
    [' https://hooks.example.com/x', 'not_a_url'],
    ['http://hooks.example.com/x', 'https_only'],
    ['ftp://hooks.example.com/x', 'https_only'],
    ['ws://hooks.example.com/x', 'https_only'],
    ['https://user@hooks.example.com/x', 'no_credentials'],
    ['https://user:pass@hooks.example.com/x', 'no_credentials'],
    ['https://:pass@hooks.example.com/x', 'no_credentials'],
    ['https://8.8.8.8/x', 'no_ip_literal'],
    ['https://127.0.0.1/x', 'no_ip_literal'],
    ['https://10.1.2.3:8443/x', 'no_ip_literal'],
    ['https://2130706433/x', 'no_ip_literal'],
    ['https://0x7f000001/x', 'no_ip_literal'],
    ['https://0x7f.1/x', 'no_ip_literal'],
    ['https://017700000001/x', 'no_ip_literal'],
    ['https://1.2.3/x', 'no_ip_literal'],
    ['https://[::1]/x', 'no_ip_literal'],
    ['https://[2001:4860:4860::8888]/x', 'no_ip_literal'],
    ['https://[::ffff:127.0.0.1]/x', 'no_ip_literal'],
    ['https://localhost/x', 'no_localhost'],
    ['https://LOCALHOST:8443/x', 'no_localhost'],
    ['https://localhost./x', 'no_localhost'],
    ['https://api.localhost/x', 'no_localhost'],
    ['https://ｌｏｃａｌｈｏｓｔ/x', 'no_localhost'],
    ['https://intranet/x', 'no_private_hostname'],
    ['https://router./x', 'no_private_hostname'],
    ['https://printer.local/x', 'no_private_hostname'],
    ['https://db.internal/x', 'no_private_hostname'],
    ['https://nas.lan/x', 'no_private_hostname'],
    ['https://box.home.arpa/x', 'no_private_hostname'],
    ['https://erp.corp/x', 'no_private_hostname'],
    ['https://svc.localdomain/x', 'no_private_hostname'],
  ];
  for (const [text, rule] of refused) {
    it(`refuses ${JSON.stringify(text)} under rule ${rule}`, () => {
      const verdict = checkWebhookUrlText(text, strict);
      expect(verdict).toMatchObject({ ok: false, rule });
      if (!verdict.ok) expect(verdict.detail.length).toBeGreaterThan(10);
    });
  }

  const accepted = ['https://hooks.example.com/x', 'https://hooks.example.com:8443/a/b?c=d', 'https://xn--fsq.com/hook', 'https://a.b.c.d.io/'];
  for (const text of accepted) {
    it(`accepts ${text}`, () => {
      expect(checkWebhookUrlText(text, strict)).toMatchObject({ ok: true, loopback: false });
    });
  }

  it('accepts the empty URL, which means "send nothing"', () => {
    expect(checkWebhookUrlText('', strict)).toEqual({ ok: true, url: null, loopback: false });
  });

  it('names the integer spelling of an IP literal in the detail', () => {
    const verdict = checkWebhookUrlText('https://2130706433/x', strict);
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) expect(verdict.detail).toContain('2130706433 is the IP address 127.0.0.1');
  });

  it('accepts explicit loopback URLs only while allow_loopback_webhooks is on', () => {
    for (const text of ['http://127.0.0.1:4567/hook', 'http://localhost:4567/hook', 'http://LOCALHOST:80/']) {
      expect(checkWebhookUrlText(text, loopback)).toMatchObject({ ok: true, loopback: true });
      expect(checkWebhookUrlText(text, strict).ok).toBe(false);
    }
    expect(checkWebhookUrlText('http://127.0.0.1:4567/hook', strict)).toMatchObject({ ok: false, rule: 'https_only' });
    expect(checkWebhookUrlText('https://127.0.0.1:4567/hook', strict)).toMatchObject({ ok: false, rule: 'no_ip_literal' });
    // https to those two spellings too (a receiver with a development certificate), only while loopback is allowed.
    expect(checkWebhookUrlText('https://127.0.0.1:4567/hook', loopback)).toMatchObject({ ok: true, loopback: true });
    expect(checkWebhookUrlText('https://localhost:4567/hook', loopback)).toMatchObject({ ok: true, loopback: true });
    expect(checkWebhookUrlText('https://localhost:4567/hook', strict)).toMatchObject({ ok: false, rule: 'no_localhost' });
    // Other spellings of loopback stay IP literals over https as over http.
    expect(checkWebhookUrlText('https://2130706433:4567/hook', loopback)).toMatchObject({ ok: false, rule: 'no_ip_literal' });
    expect(checkWebhookUrlText('ftp://127.0.0.1:4567/hook', loopback)).toMatchObject({ ok: false, rule: 'https_only' });
  });

  it('keeps every other rule while loopback is allowed', () => {
    expect(checkWebhookUrlText('http://2130706433:4567/', loopback)).toMatchObject({ ok: false, rule: 'https_only' });
    expect(checkWebhookUrlText('https://2130706433:4567/', loopback)).toMatchObject({ ok: false, rule: 'no_ip_literal' });
    expect(checkWebhookUrlText('https://0x7f.1:4567/', loopback)).toMatchObject({ ok: false, rule: 'no_ip_literal' });
    expect(checkWebhookUrlText('http://user:pw@127.0.0.1:4567/', loopback)).toMatchObject({ ok: false, rule: 'no_credentials' });
    expect(checkWebhookUrlText('http://10.0.0.1:4567/', loopback)).toMatchObject({ ok: false, rule: 'https_only' });
    expect(checkWebhookUrlText('https://127.0.0.2:4567/', loopback)).toMatchObject({ ok: false, rule: 'no_ip_literal' });
    expect(checkWebhookUrlText('https://[::1]:4567/', loopback)).toMatchObject({ ok: false, rule: 'no_ip_literal' });
    expect(checkWebhookUrlText('http://api.localhost:4567/', loopback)).toMatchObject({ ok: false, rule: 'https_only' });
    expect(checkWebhookUrlText('https://api.localhost:4567/', loopback)).toMatchObject({ ok: false, rule: 'no_localhost' });
  });
});

describe('resolved-address rule', () => {
  const refused = [
    '127.0.0.1',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fe80::1%eth0',
    'fc00::1',
    'fd12:3456::1',
    '::ffff:10.0.0.1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::7f00:1',
    '::a00:1',
    '64:ff9b::a00:1',
    '2002:a00:1::1',
  ];
  for (const address of refused) {
    it(`refuses ${address}`, () => {
      expect(checkResolvedAddress(address)).toMatchObject({ ok: false, rule: 'private_address' });
    });
  }
  for (const address of ['8.8.8.8', '93.184.216.34', '2001:4860:4860::8888', '::ffff:8.8.8.8']) {
    it(`accepts the public address ${address}`, () => {
      expect(checkResolvedAddress(address)).toEqual({ ok: true });
    });
  }
});
