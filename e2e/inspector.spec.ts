// The webhook inspector in Chromium through the harness (real main-process handlers, real local service):
// one click connects the local webhook, a ping arrives verified step by step, and a tampered paste shows
// the failing step with its reason.
import { expect, test } from './fixtures/harness.ts';
import type { Page } from '@playwright/test';

type Api = Record<string, (input: unknown) => Promise<{ ok: boolean; value?: unknown; error?: { code: string; message: string } }>>;

async function callApi<T>(page: Page, name: string, input: unknown = {}): Promise<T> {
  const result = await page.evaluate(
    async ([n, i]) => (globalThis as unknown as { api: Api }).api[n as string]!(i),
    [name, input] as const,
  );
  if (!result.ok) throw new Error(`${name} failed: ${JSON.stringify(result.error)}`);
  return result.value as T;
}

async function connectAndPing(page: Page): Promise<string> {
  await page.getByTestId('nav-webhooks').click();
  await expect(page.getByTestId('inspector-url')).toHaveText(/^http:\/\/127\.0\.0\.1:\d+\/webhooks$/);
  await expect(page.getByTestId('inspector-no-secret')).toBeVisible();
  await page.getByTestId('inspector-connect-local').click();
  await expect(page.getByTestId('inspector-secret-masked')).toHaveText(/^whsec_…[A-Za-z0-9]{4}$/);
  const { deliveryId } = await callApi<{ deliveryId: string }>(page, 'localWebhookPing');
  return deliveryId;
}

test('connect local, ping: the delivery appears and verifies step by step', async ({ page, harness }, testInfo) => {
  await page.goto(harness.url);
  const deliveryId = await connectAndPing(page);
  const group = page.locator(`[data-testid="inspector-delivery-group"][data-delivery-id="${deliveryId}"]`);
  await expect(group).toBeVisible();
  await expect(group).toHaveAttribute('data-valid', 'true');
  await expect(group.getByTestId('duplicate-badge')).toHaveCount(0);
  const attempt = group.getByTestId('inspector-attempt');
  await expect(attempt).toHaveCount(1);
  await expect(attempt).toHaveAttribute('data-status', '200');
  await attempt.click();

  const verdict = page.getByTestId('inspector-detail').getByTestId('inspector-verdict');
  await expect(verdict).toHaveAttribute('data-valid', 'true');
  await expect(verdict.getByTestId('inspector-diagnosis')).toHaveAttribute('data-code', 'valid');
  for (const step of ['headers', 'event', 'timestamp', 'signature', 'body']) {
    await expect(verdict.getByTestId(`step-${step}`)).toHaveAttribute('data-verdict', 'pass');
  }
  await expect(verdict.getByTestId('signature-part')).toHaveAttribute('data-matches', 'true');
  // The countdown is live: it shows the time left in the 5-minute window and moves.
  const countdown = verdict.getByTestId('timestamp-countdown');
  const first = await countdown.textContent();
  await expect(countdown).not.toHaveText(first ?? '', { timeout: 5_000 });
  await expect(page.getByTestId('inspector-body')).toHaveText('{"event":"ping"}');

  // Export as curl carries the signature header and the body.
  await page.getByTestId('inspector-export-curl').click();
  await expect(page.getByTestId('inspector-export-text')).toContainText("-H 'X-Service-Signature: v1=");
  await expect(page.getByTestId('inspector-export-text')).toContainText(`--data-binary '{"event":"ping"}'`);
  await page.screenshot({ path: testInfo.outputPath('inspector.png'), fullPage: true });
});

test('a tampered paste shows the failing step and why, in the UI language', async ({ page, harness }) => {
  await page.goto(harness.url);
  const deliveryId = await connectAndPing(page);
  await expect(page.locator(`[data-testid="inspector-delivery-group"][data-delivery-id="${deliveryId}"]`)).toHaveAttribute('data-valid', 'true');
  const list = await callApi<{ groups: Array<{ deliveryId: string; attempts: Array<{ requestId: string }> }> }>(page, 'inspectorList', {});
  const requestId = list.groups.find((g) => g.deliveryId === deliveryId)?.attempts[0]?.requestId;
  const detail = await callApi<{ headers: Array<{ name: string; value: string }>; bodyText: string }>(page, 'inspectorGet', { requestId });
  const head = detail.headers.map((h) => `${h.name}: ${h.value}`).join('\r\n');

  const paste = page.getByTestId('inspector-paste');
  // Untouched, it verifies with the stored secret.
  await paste.getByTestId('paste-raw').fill(`POST /webhooks HTTP/1.1\r\n${head}\r\n\r\n${detail.bodyText}`);
  await paste.getByTestId('paste-verify').click();
  await expect(paste.getByTestId('inspector-diagnosis')).toHaveAttribute('data-code', 'valid');

  // One changed byte in the body: headers still pass, the signature step fails, and the reason says so. The
  // delivery was captured, so the paste is compared with it: the body changed, the secret is not blamed (D10).
  await paste.getByTestId('paste-raw').fill(`POST /webhooks HTTP/1.1\r\n${head}\r\n\r\n${detail.bodyText.replace('ping', 'pong')}`);
  await paste.getByTestId('paste-verify').click();
  const result = paste.getByTestId('paste-result');
  await expect(result.getByTestId('inspector-diagnosis')).toHaveAttribute('data-code', 'body_changed');
  await expect(result.getByTestId('step-headers')).toHaveAttribute('data-verdict', 'pass');
  await expect(result.getByTestId('step-signature')).toHaveAttribute('data-verdict', 'fail');
  await expect(result.getByTestId('signature-part')).toHaveAttribute('data-matches', 'false');
  await expect(result.getByTestId('step-body')).toHaveAttribute('data-verdict', 'fail');
  // The app starts in Chinese (DESIGN.md §3): the reason is a sentence in Chinese.
  await expect(result.getByTestId('inspector-diagnosis')).toContainText('正文被改动过');

  // A newline added by the paste is named as a changed body, not a wrong secret.
  await paste.getByTestId('paste-raw').fill(`${head}\n\n${detail.bodyText}\n`);
  await paste.getByTestId('paste-verify').click();
  await expect(result.getByTestId('inspector-diagnosis')).toHaveAttribute('data-code', 'body_changed');

  // With a typed secret that is not the service's.
  await paste.getByTestId('paste-use-stored').uncheck();
  await paste.getByTestId('paste-secret').fill('whsec_' + 'x'.repeat(32));
  await paste.getByTestId('paste-raw').fill(`${head}\r\n\r\n${detail.bodyText}`);
  await paste.getByTestId('paste-verify').click();
  await expect(result.getByTestId('inspector-diagnosis')).toHaveAttribute('data-code', 'wrong_secret');
});

test('send a signed test notification from the form; the same (pack_id, version) again is flagged as a duplicate', async ({ page, harness }) => {
  await page.goto(harness.url);
  await page.getByTestId('nav-webhooks').click();
  await page.getByTestId('inspector-connect-local').click();
  await expect(page.getByTestId('inspector-secret-masked')).toBeVisible();
  const form = page.getByTestId('inspector-send-test');
  // The target defaults to the inspector's own receiver.
  await form.getByTestId('send-submit').click();
  await expect(form.getByTestId('send-answer')).toHaveAttribute('data-status', '200');
  const groups = page.getByTestId('inspector-delivery-group');
  await expect(groups).toHaveCount(1);
  await expect(groups.first()).toHaveAttribute('data-valid', 'true');
  await form.getByTestId('send-submit').click();
  await expect(groups).toHaveCount(2);
  // Newest first: the second delivery of the same publication carries the badge, the first does not.
  await expect(groups.nth(0).getByTestId('duplicate-badge')).toBeVisible();
  await expect(groups.nth(1).getByTestId('duplicate-badge')).toHaveCount(0);

  // Signed with a secret that is not the stored one: the receiver answers 401 and the delivery shows why.
  await form.getByTestId('send-use-stored').uncheck();
  await form.getByTestId('send-secret').fill('whsec_' + 'y'.repeat(32));
  await form.getByTestId('send-event').selectOption('ping');
  await form.getByTestId('send-submit').click();
  await expect(form.getByTestId('send-answer')).toHaveAttribute('data-status', '401');
  await expect(groups).toHaveCount(3);
  await groups.nth(0).getByTestId('inspector-attempt').click();
  await expect(page.getByTestId('inspector-detail').getByTestId('inspector-diagnosis')).toHaveAttribute('data-code', 'wrong_secret');
  await expect(page.getByTestId('inspector-detail').getByTestId('step-signature')).toHaveAttribute('data-verdict', 'fail');
});

test('for integrators: forward to my endpoint, break a delivery on purpose, reveal the secret', async ({ page, harness }, testInfo) => {
  const { createServer } = await import('node:http');
  const seen: string[] = [];
  const endpoint = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push(body);
      res.writeHead(202, { 'Content-Type': 'text/plain' }).end('queued by my app');
    });
  });
  await new Promise<void>((r) => endpoint.listen(0, '127.0.0.1', r));
  try {
    await page.goto(harness.url);
    const deliveryId = await connectAndPing(page);
    const address = endpoint.address() as { port: number };
    await page.getByTestId('inspector-forward-to').fill(`http://127.0.0.1:${address.port}/my-hook`);
    await page.getByTestId('inspector-forward-apply').click();
    await expect(page.getByTestId('inspector-forward-to')).toHaveValue(`http://127.0.0.1:${address.port}/my-hook`);

    // A new ping is relayed byte for byte; what my endpoint answered shows under the delivery.
    const second = await callApi<{ deliveryId: string }>(page, 'localWebhookPing');
    expect(second.deliveryId).not.toBe(deliveryId);
    const group = page.locator(`[data-testid="inspector-delivery-group"][data-delivery-id="${second.deliveryId}"]`);
    await group.getByTestId('inspector-attempt').click();
    await expect(page.getByTestId('inspector-forward')).toHaveAttribute('data-status', '202');
    expect(seen).toEqual(['{"event":"ping"}']);

    // Broken on purpose: a stale timestamp, sent into the inspector itself, fails at the timestamp step.
    const form = page.getByTestId('inspector-send-test');
    await form.getByTestId('send-event').selectOption('ping');
    await form.getByTestId('send-breakage').selectOption('stale_timestamp');
    await form.getByTestId('send-submit').click();
    await expect(form.getByTestId('send-answer')).toHaveAttribute('data-status', '401');
    await expect(form.getByTestId('send-expected')).toHaveAttribute('data-fails-at', 'timestamp_stale');
    // Newest first, once the list has it: two pings and this one.
    await expect(page.getByTestId('inspector-delivery-group')).toHaveCount(3);
    await page.getByTestId('inspector-delivery-group').first().getByTestId('inspector-attempt').click();
    await expect(page.getByTestId('inspector-detail').getByTestId('inspector-diagnosis')).toHaveAttribute('data-code', 'timestamp_stale');

    // The whole secret, on a click, to copy into my receiver.
    await page.getByTestId('inspector-secret-reveal').click();
    await expect(page.getByTestId('inspector-secret-revealed')).toHaveText(/^whsec_[A-Za-z0-9]{8,}$/);
    await page.screenshot({ path: testInfo.outputPath('inspector-integrator.png'), fullPage: true });
  } finally {
    endpoint.close();
  }
});
