// issue 27 Deliver 8: with allow_loopback_webhooks on, an https:// receiver on 127.0.0.1 or localhost is accepted and
// delivered to, even with a self-signed development certificate (the connection never leaves the machine); every other
// https receiver's certificate is verified as before (services/dispatcher.ts). Over real HTTPS on loopback.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useFileService, waitUntil } from './packs-webhooks.test-support.ts';

const { svc } = useFileService((service) => service.admin('PUT', '/admin/settings', { allow_loopback_webhooks: true }));

let receiver: Server;
let port = 0;
const received: Array<{ event: string | undefined; body: string }> = [];
let certDir = '';

beforeAll(async () => {
  await svc.admin('PUT', '/admin/settings', { allow_loopback_webhooks: true });
  // A throwaway self-signed certificate for 127.0.0.1 and localhost, as a developer's receiver would have.
  certDir = mkdtempSync(join(tmpdir(), 'svc-https-receiver-'));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=localhost',
    '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost', '-keyout', join(certDir, 'key.pem'), '-out', join(certDir, 'cert.pem')], { stdio: 'ignore' });
  receiver = createServer({ key: readFileSync(join(certDir, 'key.pem')), cert: readFileSync(join(certDir, 'cert.pem')) }, (req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      received.push({ event: req.headers['x-service-event'] as string | undefined, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  port = (receiver.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => receiver?.close(resolve));
  rmSync(certDir, { recursive: true, force: true });
});

describe('https loopback receivers', () => {
  it('accepts https://127.0.0.1 while loopback is allowed, and delivers a ping to a self-signed receiver', async () => {
    const account = ((await svc.admin('POST', '/admin/accounts', { credits: 0 })).json as { id: string }).id;
    const url = `https://127.0.0.1:${port}/hook`;
    const put = await svc.admin('PUT', `/admin/accounts/${account}/webhook`, { url, enabled: true });
    expect(put.status, put.text).toBe(200);
    expect((await svc.admin('POST', `/admin/accounts/${account}/webhook/ping`)).status).toBe(202);
    const state = await waitUntil(async () => {
      const body = (await svc.admin('GET', `/admin/accounts/${account}/webhook`)).json as { last_delivery: { outcome: string; status: number | null } | null };
      return body.last_delivery && body.last_delivery.outcome !== 'pending' ? body : null;
    });
    expect(state.last_delivery).toMatchObject({ outcome: 'succeeded', status: 204 });
    expect(received).toContainEqual({ event: 'ping', body: '{"event":"ping"}' });
  });

  it('refuses https://127.0.0.1 once loopback is no longer allowed', async () => {
    const account = ((await svc.admin('POST', '/admin/accounts', { credits: 0 })).json as { id: string }).id;
    await svc.admin('PUT', '/admin/settings', { allow_loopback_webhooks: false });
    const put = await svc.admin('PUT', `/admin/accounts/${account}/webhook`, { url: `https://127.0.0.1:${port}/hook`, enabled: true });
    expect(put.status).toBe(400);
    expect(put.text).toContain('no_ip_literal');
  });
});
