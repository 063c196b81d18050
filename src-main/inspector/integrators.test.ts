// The inspector for integrators over real HTTP on loopback: deliberate breakage checked against the inspector and an
// independent Python receiver (test-support/webhook_receiver.py), forward-to per attempt, the integrator's own secret
// and its reveal, D9 (no keychain), an edited replay, and upper-case hex refused.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { closeOpened, lastRequest, nodeHmac, open, OTHER, post, publishedBody, SECRET, signed, startInspector } from './inspector.test-support.ts';
import { createTestContext } from './test-context.ts';

afterEach(closeOpened);

describe('webhooks for integrators', () => {
  async function pythonReceiver(secret: string): Promise<{ url: string; stop(): void }> {
    const { spawn } = await import('node:child_process');
    const child = spawn('python3', ['test-support/webhook_receiver.py', secret], { stdio: ['ignore', 'pipe', 'inherit'] });
    const port = await new Promise<string>((resolve, reject) => {
      child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
      child.once('error', reject);
    });
    return { url: `http://127.0.0.1:${port}/hook`, stop: () => child.kill('SIGKILL') };
  }

  it('each deliberate breakage fails at exactly its step, in the inspector and in an independent Python receiver', async () => {
    const { BREAKAGE_FAILS_AT, WEBHOOK_BREAKAGES } = await import('../../src-shared/webhook-breakage.ts');
    // Two secrets: the current one and one Regenerate replaced, so `previous_secret` has something to sign with.
    const { handlers, url } = await startInspector(undefined, [OTHER, SECRET]);
    const python = await pythonReceiver(SECRET);
    try {
      for (const breakage of WEBHOOK_BREAKAGES) {
        const intoInspector = await handlers.inspectorSendTest({ url, event: 'ping', breakage, useStoredSecret: true });
        expect(intoInspector.failsAt, breakage).toBe(BREAKAGE_FAILS_AT[breakage]);
        const detail = await lastRequest(handlers);
        expect(detail.verification.report.reason, breakage).toBe(BREAKAGE_FAILS_AT[breakage]);
        expect(detail.responseStatus, breakage).toBe(BREAKAGE_FAILS_AT[breakage] === null ? 200 : 401);
        if (breakage === 'previous_secret') expect(detail.diagnosis).toBe('old_secret');
        // The tamper adds a space to valid JSON: the inspector finds the compact original and names the change.
        if (breakage === 'tampered_body') expect(detail.diagnosis).toBe('body_changed');

        const intoPython = await handlers.inspectorSendTest({ url: python.url, event: 'ping', breakage, useStoredSecret: true });
        const expected = BREAKAGE_FAILS_AT[breakage];
        expect(intoPython.status, breakage).toBe(expected === null ? 200 : 401);
        expect(JSON.parse(intoPython.responseSnippet), breakage).toEqual(expected === null ? { ok: true } : { reason: expected });
      }
    } finally {
      python.stop();
    }
  });

  it('previous_secret without an earlier secret is refused with a clear error and sends nothing', async () => {
    const { handlers, url } = await startInspector();
    await expect(handlers.inspectorSendTest({ url, event: 'ping', breakage: 'previous_secret', useStoredSecret: true })).rejects.toMatchObject({ code: 'no_previous_secret' });
    expect((await handlers.inspectorList({})).total).toBe(0);
  });

  it('forward-to relays each capture byte for byte and records what the endpoint answered, per attempt', async () => {
    const { handlers, url } = await startInspector();
    const seen: Array<{ headers: IncomingMessage['headers']; body: string }> = [];
    let answer = 500;
    const endpoint = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({ headers: req.headers, body: Buffer.concat(chunks).toString() });
        res.writeHead(answer, { 'X-Endpoint': 'mine', 'Content-Type': 'text/plain' }).end(`answered ${answer}`);
      });
    });
    open.push(endpoint);
    await new Promise<void>((r) => endpoint.listen(0, '127.0.0.1', r));
    const endpointUrl = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/my-hook`;
    const status = await handlers.inspectorConfigure({ forwardTo: endpointUrl });
    expect(status.forwardTo).toBe(endpointUrl);

    const b = publishedBody();
    const h = signed(b);
    expect((await post(url, h, b)).status).toBe(200);
    // The relay runs after the inspector answered: wait for it before the endpoint changes its answer.
    await expect.poll(() => seen.length).toBe(1);
    answer = 204;
    const retry = signed(b, { deliveryId: h['X-Service-Delivery'] });
    expect((await post(url, retry, b)).status).toBe(200);
    await expect.poll(() => seen.length).toBe(2);
    expect(seen[0]?.body).toBe(b);
    expect(seen[0]?.headers['x-service-signature']).toBe(h['X-Service-Signature']);
    expect(seen[1]?.headers['x-service-timestamp']).toBe(retry['X-Service-Timestamp']);

    const group = (await handlers.inspectorList({})).groups[0];
    const details = await Promise.all((group?.attempts ?? []).map((a) => handlers.inspectorGet({ requestId: a.requestId })));
    await expect.poll(async () => (await Promise.all(details.map((d) => handlers.inspectorGet({ requestId: d.requestId })))).map((d) => d.forwards?.map((f) => f.status))).toEqual([[500], [204]]);
    const first = await handlers.inspectorGet({ requestId: details[0]?.requestId as string });
    expect(first.valid).toBe(true);
    expect(first.forwards?.[0]).toMatchObject({ url: endpointUrl, responseSnippet: 'answered 500', error: null });
    expect(first.forwards?.[0]?.responseHeaders).toContainEqual({ name: 'X-Endpoint', value: 'mine' });

    // Off again: nothing more is relayed.
    await handlers.inspectorConfigure({ forwardTo: null });
    await post(url, signed(b), b);
    await new Promise((r) => setTimeout(r, 200));
    expect(seen).toHaveLength(2);
  });

  it('verifies with the integrator own secret, reveals the whole secret on request, and refuses a malformed one', async () => {
    const { handlers, url } = await startInspector();
    const own = `whsec_${'c'.repeat(40)}`;
    const status = await handlers.inspectorSetSecret({ secret: own });
    expect(status.secretMasked).toBe(`whsec_…cccc`);
    expect(status.previousSecrets).toBe(1);
    const b = publishedBody();
    expect((await post(url, signed(b, { secret: own }), b)).status).toBe(200);
    expect((await handlers.inspectorRevealSecret({})).secret).toBe(own);
    // A typo is refused and changes nothing (checked by main's IPC schema; here through the same contract).
    const { inspectorMethods } = await import('../../src-shared/ipc/inspector.ts');
    const parsed = inspectorMethods.inspectorSetSecret.input.safeParse({ secret: 'whsec short' });
    expect(parsed.success).toBe(false);
    expect((await handlers.inspectorRevealSecret({})).secret).toBe(own);
  });

  it('D9: without a system keychain the status says the secret is held in memory', async () => {
    const ctx = await createTestContext();
    const { openSecretStore } = await import('../secrets/secret-store.ts');
    const memory = await openSecretStore({ backend: 'memory', service: 'unused' });
    const { handlers } = await startInspector({ ...ctx, secrets: memory, secretStore: memory });
    expect((await handlers.inspectorStatus({})).secretKept).toBe('memory');
  });

  it('replays a captured delivery with an edited body, re-signed, so it verifies', async () => {
    const { handlers, url } = await startInspector();
    const b = publishedBody();
    await post(url, signed(b), b);
    const captured = await lastRequest(handlers);
    const editedBody = publishedBody('pk_Edited12', 9);
    const sent = await handlers.inspectorResend({ requestId: captured.requestId, url, bodyText: editedBody, useStoredSecret: true });
    expect(sent.body).toBe(editedBody);
    const replayed = await lastRequest(handlers);
    expect(replayed.bodyText).toBe(editedBody);
    expect(replayed.valid).toBe(true);
    expect(replayed.deliveryId).toBe(captured.deliveryId);
  });

  it('refuses a signature written in upper-case hex, as strict receivers do', async () => {
    const { handlers, url } = await startInspector();
    const b = publishedBody();
    const ts = Math.floor(Date.now() / 1000);
    const res = await post(url, signed(b, { ts, signature: `v1=${nodeHmac(SECRET, ts, b).toUpperCase()}` }), b);
    expect(res.status).toBe(401);
    const detail = await lastRequest(handlers);
    expect(detail.verification.report.signature.parts[0]?.problem).toBe('uppercase_hex');
  });
});
