// The designer's loop in Chromium through the harness, against a real local service: write, estimate,
// generate, browse, reuse by drag, regenerate, export; the estimate equals what the service charges.
import { expect, startHarness, test } from './fixtures/harness.ts';
import { clippedCards, compose, estimateTotal, generateAndWait, openStudio, openTab, screenshot } from './support/studio.ts';

test('the full generate flow: estimate, run, results in place, request id, gallery, recall', async ({ page, harness }) => {
  await openStudio(page, harness.url);
  // An empty draft is where work starts: a calm hint, not a red error.
  await expect(page.getByTestId('validation-hint')).toHaveAttribute('data-code', 'prompt_or_reference_required');
  await expect(page.getByTestId('validation-hint')).not.toHaveClass(/estimate-problem/);
  // With nothing to send, Generate is disabled and says why beside it in plain words (no error code); Ctrl+Enter
  // refuses nothing either.
  await expect(page.getByTestId('generate')).toBeDisabled();
  await expect(page.getByTestId('generate-blocked')).toHaveAttribute('data-reason', 'empty');
  await expect(page.getByTestId('generate-blocked')).toContainText('提示词');
  await page.getByTestId('prompt').press('Control+Enter');
  await expect(page.getByTestId('error-banner')).toHaveCount(0);
  await expect(page.locator('.compose-foot')).not.toContainText('prompt_or_reference_required');
  await expect(page.getByTestId('stage-empty')).toHaveAttribute('data-history', 'false');
  await screenshot(page, 'studio-empty');
  await compose(page, { prompt: 'A ceramic mug on a walnut table, morning light', model: 'nano-banana-2', resolution: '2K', n: '2' });
  // spec §4.1 billing example: n=2 at 2K on nano-banana-2 reserves 2 × 16 = 32.
  await expect(page.getByTestId('estimate')).toContainText('32');
  await expect(page.getByTestId('estimate-breakdown')).toContainText('2 × ');
  // nano-banana-2 has no quality setting: the field is not offered.
  await expect(page.getByTestId('quality')).toHaveCount(0);
  await screenshot(page, 'compose');

  const turn = await generateAndWait(page, 'succeeded');
  await expect(turn.getByTestId('turn-image')).toHaveCount(2);
  await expect(turn.getByTestId('turn-credits')).toHaveAttribute('data-charged', '32');
  await expect(turn.getByTestId('request-id')).toHaveText(/^req_[A-Za-z0-9]{20}$/);
  await expect(turn.locator('img').first()).toHaveJSProperty('complete', true);

  const gallery = page.getByTestId('gallery');
  await expect(gallery.getByTestId('session-group')).toHaveCount(1);
  await expect(gallery.getByTestId('gallery-image')).toHaveCount(2);
  await screenshot(page, 'generated');
  // The compose panel names the session it now continues: its automatic title, the first prompt (46 characters,
  // under the 48 a title keeps), not the service's "API generation".
  await expect(page.getByTestId('compose-session-title')).toHaveText('A ceramic mug on a walnut table, morning light');

  // The session continues: a second generation lands in the same group.
  await compose(page, { n: '1' });
  await page.getByTestId('prompt').press('Control+Enter');
  await expect(page.getByTestId('turn')).toHaveCount(2);
  await expect(page.getByTestId('turn').first()).toHaveAttribute('data-status', 'succeeded', { timeout: 60_000 });
  await expect(gallery.getByTestId('session-group')).toHaveCount(1);
  await expect(gallery.getByTestId('gallery-image')).toHaveCount(3);

  // Recall puts the first turn's settings back.
  await compose(page, { prompt: 'something else', model: 'seedream-5-0-pro' });
  await page.getByTestId('turn').last().getByTestId('recall').click();
  await expect(page.getByTestId('prompt')).toHaveValue('A ceramic mug on a walnut table, morning light');
  await expect(page.getByTestId('model')).toHaveValue('nano-banana-2');
  await expect(page.getByTestId('n')).toHaveValue('2');

  // A new session starts a second group, newest first.
  await page.getByTestId('new-session').click();
  const longPrompt = 'A linen tote bag, studio light. ' + 'Soft shadows, natural fibres, a clean white sweep behind it. '.repeat(30);
  await compose(page, { prompt: longPrompt, n: '1' });
  const tote = await generateAndWait(page, 'succeeded');
  // A long prompt is clamped to a few lines in the card, and can be read in full.
  const clamped = tote.getByTestId('turn-prompt');
  const cut = (el: { scrollHeight: number; clientHeight: number }) => el.scrollHeight > el.clientHeight + 1;
  expect(await clamped.evaluate(cut)).toBe(true);
  await tote.getByTestId('turn-prompt-toggle').click();
  await expect(clamped).toHaveAttribute('data-expanded', 'true');
  expect(await clamped.evaluate(cut)).toBe(false);
  await expect(gallery.getByTestId('session-group')).toHaveCount(2);
  await expect(gallery.getByTestId('session-group').first().getByTestId('gallery-image')).toHaveCount(1);

  // A session gets a local title.
  await gallery.getByTestId('session-title').first().click();
  await page.getByTestId('session-rename-input').fill('Tote bag shoot');
  await page.getByTestId('session-rename-input').press('Enter');
  await expect(gallery.getByTestId('session-title').first()).toHaveText('Tote bag shoot');
  await expect(page.getByTestId('compose-session-title')).toHaveText('Tote bag shoot');

  // Viewer: full image, arrow keys, export through the desktop shell.
  await gallery.getByTestId('gallery-image').first().dblclick();
  const viewer = page.getByTestId('viewer');
  await expect(viewer).toBeVisible();
  await expect(viewer.getByTestId('viewer-image')).toHaveJSProperty('complete', true);
  // The viewer clamps the long prompt too, so the image's facts and actions stay in view.
  await expect(viewer.getByTestId('viewer-prompt-toggle')).toBeVisible();
  await expect(viewer.getByTestId('export')).toBeInViewport();
  // Tab stays inside the modal viewer, both ways round.
  for (let i = 0; i < 20; i++) await page.keyboard.press('Tab');
  expect(await viewer.evaluate((v) => v.contains(v.ownerDocument.activeElement))).toBe(true);
  for (let i = 0; i < 20; i++) await page.keyboard.press('Shift+Tab');
  expect(await viewer.evaluate((v) => v.contains(v.ownerDocument.activeElement))).toBe(true);
  await screenshot(page, 'viewer');
  const firstSrc = await viewer.getByTestId('viewer-image').getAttribute('src');
  await page.keyboard.press('ArrowRight');
  await expect(viewer.getByTestId('viewer-image')).not.toHaveAttribute('src', firstSrc ?? '');
  await viewer.getByTestId('export').click();
  await expect.poll(async () => (await harness.shellCalls()).some((c) => c.kind === 'showSaveDialog')).toBe(true);
  await viewer.getByTestId('star').click();
  await expect(viewer.getByTestId('star')).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('Escape');
  await expect(viewer).toHaveCount(0);
  await page.getByTestId('filter-starred').check();
  await expect(gallery.getByTestId('gallery-image')).toHaveCount(1);
  await page.getByTestId('filter-starred').uncheck();
  await page.getByTestId('gallery-search').fill('tote');
  await expect(gallery.getByTestId('gallery-image')).toHaveCount(1);

  // Recall from another session's image (from the viewer): the session continued stays as it was until the designer
  // chooses between continuing that image's session and starting a new one.
  await page.getByTestId('gallery-search').fill('');
  await expect(gallery.getByTestId('session-group')).toHaveCount(2);
  await expect(page.getByTestId('compose-session-title')).toHaveText('Tote bag shoot');
  await gallery.getByTestId('session-group').nth(1).getByTestId('gallery-image').first().dblclick();
  await page.getByTestId('viewer-recall').click();
  await expect(page.getByTestId('prompt')).toHaveValue('A ceramic mug on a walnut table, morning light');
  const offer = page.getByTestId('recall-session-offer');
  await expect(offer).toContainText('A ceramic mug on a walnut table');
  await expect(page.getByTestId('compose-session-title')).toHaveText('Tote bag shoot');
  await screenshot(page, 'recall-offer');
  await page.getByTestId('recall-continue-session').click();
  await expect(offer).toHaveCount(0);
  await expect(page.getByTestId('compose-session-title')).toHaveText('A ceramic mug on a walnut table, morning light');

  // After a reload a new session is next; with earlier work in the gallery the stage points at Continue.
  await page.reload();
  await expect(page.getByTestId('stage-empty')).toHaveAttribute('data-history', 'true');
  await expect(page.getByTestId('stage-empty')).toContainText('继续');
});

const TABLE: Array<{ name: string; options: Parameters<typeof compose>[1] }> = [
  { name: 'nano 1K n=1', options: { model: 'nano-banana-2', resolution: '1K', n: '1' } },
  { name: 'nano 4K n=4', options: { model: 'nano-banana-2', resolution: '4K', n: '4' } },
  { name: 'nano default (2K)', options: { model: 'nano-banana-2', resolution: '', n: '1' } },
  { name: 'gpt-image-2 low n=2', options: { model: 'gpt-image-2', quality: 'low', n: '2' } },
  { name: 'gpt-image-2 high 2K', options: { model: 'gpt-image-2', resolution: '2K', quality: 'high', n: '1' } },
  { name: 'gpt-image-2.5 default quality', options: { model: 'gpt-image-2.5', resolution: '', quality: '', n: '1' } },
  { name: 'seedream 2K n=2', options: { model: 'seedream-5-0-pro', resolution: '2K', n: '2' } },
  { name: 'qwen 1K', options: { model: 'qwen-image-3.0-pro', resolution: '1K', n: '1' } },
  { name: 'auto (text in image → gpt)', options: { prompt: 'A poster with the slogan "FRESH" and price $9', model: 'auto', resolution: '', n: '1' } },
  { name: 'auto (default → nano)', options: { prompt: 'A plain white sneaker', model: 'auto', resolution: '', n: '2' } },
];

test('the estimate equals credits_charged across models and options, references included', async ({ page, harness }) => {
  await openStudio(page, harness.url);
  for (const row of TABLE) {
    await compose(page, { prompt: 'A glass bottle of olive oil', ...row.options });
    const estimate = await estimateTotal(page);
    const turn = await generateAndWait(page, 'succeeded');
    await expect(turn.getByTestId('turn-credits'), row.name).toHaveAttribute('data-charged', String(estimate));
  }
  // References: GPT adds 1 per reference to each image; flux (edit only) needs one.
  await page.getByTestId('turn').first().getByRole('button', { name: /参考图|reference/i }).first().click();
  await page.getByTestId('turn').nth(1).getByRole('button', { name: /参考图|reference/i }).first().click();
  await expect(page.getByTestId('reference-item')).toHaveCount(2);
  await compose(page, { prompt: 'Same bottle, new label', model: 'gpt-image-2', quality: 'medium', n: '2' });
  expect(await estimateTotal(page)).toBe(2 * (15 + 2));
  let turn = await generateAndWait(page, 'succeeded');
  await expect(turn.getByTestId('turn-credits')).toHaveAttribute('data-charged', '34');

  await page.getByTestId('reference-item').first().getByRole('button').click();
  await compose(page, { model: 'flux-kontext-pro', n: '1' });
  expect(await estimateTotal(page)).toBe(5);
  turn = await generateAndWait(page, 'succeeded');
  await expect(turn.getByTestId('turn-credits')).toHaveAttribute('data-charged', '5');
});

test('drag gallery images onto the tray, generate with them, see where they were used; outside files are refused', async ({ page, harness }) => {
  await openStudio(page, harness.url);
  await compose(page, { prompt: 'Four angles of a leather wallet', model: 'nano-banana-2', resolution: '1K', n: '4' });
  await generateAndWait(page, 'succeeded');
  const images = page.getByTestId('gallery').getByTestId('gallery-image');
  await expect(images).toHaveCount(4);
  const tray = page.getByTestId('reference-tray');

  // One image by drag.
  await images.nth(0).dragTo(tray);
  await expect(tray.getByTestId('reference-item')).toHaveCount(1);
  // Several at once: select with Ctrl and Shift, then drag the selection.
  await images.nth(1).click();
  await images.nth(3).click({ modifiers: ['Shift'] });
  await expect(page.getByTestId('selection-bar')).toContainText('3');
  await images.nth(2).dragTo(tray);
  await expect(tray.getByTestId('reference-item')).toHaveCount(4);
  await expect(page.getByTestId('tray-limit')).toContainText('4 / 14');
  // The limit follows the model live.
  await compose(page, { model: 'qwen-image-3.0-pro' });
  await expect(page.getByTestId('tray-limit')).toContainText('4 / 3');
  await expect(page.getByTestId('validation-hint')).toHaveAttribute('data-code', 'too_many_reference_images');
  await tray.getByTestId('reference-item').last().getByRole('button').click();
  await expect(page.getByTestId('tray-limit')).toContainText('3 / 3');
  await screenshot(page, 'reference-tray');

  const referenceIds = await tray.getByTestId('reference-item').evaluateAll((els) => els.map((e) => e.getAttribute('data-image-id')));
  const turn = await generateAndWait(page, 'succeeded');
  await expect(turn).toContainText('3');
  // The image's detail shows where it was used as a reference.
  await page.getByTestId('gallery').locator(`[data-image-id="${referenceIds[0]}"]`).dblclick();
  await expect(page.getByTestId('viewer-used-in')).toHaveAttribute('data-count', '1');
  await expect(page.getByTestId('viewer-references')).toHaveAttribute('data-count', '0');
  // …and the new image shows the three references it used.
  await page.keyboard.press('Escape');
  await page.getByTestId('turn').first().getByTestId('turn-image').first().locator('.thumb-button').click();
  await expect(page.getByTestId('viewer-references')).toHaveAttribute('data-count', '3');
  await page.keyboard.press('Escape');

  // A file dragged in from outside the app is refused with the reason.
  // (Browser-side code names its DOM globals through globalThis: the e2e tsconfig has no DOM lib.)
  const dataTransfer = await page.evaluateHandle(() => {
    const w = globalThis as unknown as { DataTransfer: new () => { items: { add(f: unknown): void } }; File: new (parts: unknown[], name: string, o: object) => unknown };
    const dt = new w.DataTransfer();
    dt.items.add(new w.File([new Uint8Array([137, 80, 78, 71])], 'photo.png', { type: 'image/png' }));
    return dt;
  });
  await tray.dispatchEvent('dragover', { dataTransfer });
  await tray.dispatchEvent('drop', { dataTransfer });
  await expect(page.getByTestId('tray-notice')).toContainText(/上传|upload/);
  await expect(tray.getByTestId('reference-item')).toHaveCount(3);

  // Dragging an image out of the window asks main to start an OS drag of the full PNG.
  await page.evaluate(() => {
    type Target = { dispatchEvent(e: unknown): boolean };
    const w = globalThis as unknown as {
      document: { querySelector(s: string): Target | null; body: Target };
      DragEvent: new (type: string, init: object) => unknown;
      DataTransfer: new () => unknown;
    };
    const thumb = w.document.querySelector('[data-testid="gallery"] [data-testid="gallery-image"]');
    if (!thumb) throw new Error('no thumbnail');
    thumb.dispatchEvent(new w.DragEvent('dragstart', { bubbles: true, dataTransfer: new w.DataTransfer() }));
    w.document.body.dispatchEvent(new w.DragEvent('dragleave', { bubbles: true, clientX: -1, clientY: 200 }));
  });
  await expect.poll(async () => (await harness.shellCalls()).filter((c) => c.kind === 'startDrag').length).toBe(1);
  const drag = (await harness.shellCalls()).find((c) => c.kind === 'startDrag');
  expect(drag && drag.kind === 'startDrag' && drag.files[0]).toMatch(/\.png$/);
});

test('the interface switches between Chinese and English', async ({ page, harness }) => {
  await openStudio(page, harness.url);
  await expect(page.getByTestId('nav-studio')).toHaveText('工作台');
  await compose(page, { prompt: 'A cotton shirt', model: 'nano-banana-2', resolution: '1K' });
  await expect(page.getByTestId('estimate')).toHaveText('12 积分');
  await openTab(page, 'settings');
  await screenshot(page, 'settings-zh');
  await page.getByTestId('language-select').selectOption('en');
  await expect(page.getByTestId('nav-studio')).toHaveText('Studio');
  await screenshot(page, 'settings-en');
  await openTab(page, 'studio');
  await expect(page.getByTestId('estimate')).toHaveText('12 credits');
  // The longer English line about the next session is shown in full, not cut to an ellipsis.
  const sessionText = page.getByTestId('compose-session').locator('.session-text');
  await expect(sessionText).toHaveText('The next generation starts a new session.');
  expect(await sessionText.evaluate((el) => el.scrollHeight <= el.clientHeight + 1 && el.scrollWidth <= el.clientWidth + 1)).toBe(true);
  await expect(page.getByTestId('generate')).toContainText('Generate');
  await expect(page.getByTestId('purpose').locator('option').first()).toHaveText('Free');
  await generateAndWait(page, 'succeeded');
  await expect(page.getByTestId('gallery-totals')).toHaveText('1 image · 1 session');
  await screenshot(page, 'studio-en');
  // The theme follows the OS: dark colours come from the same variables.
  await page.emulateMedia({ colorScheme: 'dark' });
  const background = await page.locator('body').evaluate((b) => (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(b).backgroundColor);
  expect(background).toBe('rgb(20, 20, 20)');
  await screenshot(page, 'studio-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  // The choice is kept by main: a reload comes back in English.
  await page.reload();
  await expect(page.getByTestId('nav-studio')).toHaveText('Studio');
  await openTab(page, 'local');
  await expect(page.getByTestId('local-balance')).toBeVisible();
  await screenshot(page, 'local-console');
});

test('settings: a key is entered masked, never shown again, and the connection can be tested', async ({ page, harness }) => {
  await openStudio(page, harness.url);
  // A Local session is being continued; switching to Remote below must not carry it over.
  await compose(page, { prompt: 'A wool scarf', model: 'nano-banana-2', resolution: '1K' });
  await generateAndWait(page, 'succeeded');
  await expect(page.getByTestId('compose-session-title')).toBeVisible();
  await openTab(page, 'settings');
  await expect(page.getByTestId('key-state-local')).toContainText('••••');
  // Every card shows all of its content at the size designers use (none squeezed by the page).
  expect(await clippedCards(page)).toEqual([]);
  await page.setViewportSize({ width: 1100, height: 720 });
  expect(await clippedCards(page)).toEqual([]);
  await page.getByTestId('test-connection-local').click();
  await expect(page.getByTestId('connection-result')).toHaveClass(/hint-ok/);
  const input = page.getByTestId('key-input-remote');
  await expect(input).toHaveAttribute('type', 'password');
  await expect(page.getByTestId('key-needs-url-remote')).toBeVisible();
  await page.getByTestId('remote-url').fill('https://images.example.com');
  await page.getByRole('button', { name: '保存', exact: true }).click();
  // The key is bound to the saved address: key entry opens once main has it.
  await expect(page.getByTestId('key-needs-url-remote')).toHaveCount(0);
  const key = 'sk_' + 'R'.repeat(28) + 'wxyz';
  await input.fill(key);
  await page.getByTestId('key-input-remote').press('Enter');
  await expect(page.getByTestId('key-state-remote')).toContainText('wxyz');
  await expect(input).toHaveValue('');
  // The key text is nowhere in the page, only its masked tail.
  expect(await page.content()).not.toContain(key);
  await page.getByTestId('env-remote').click();
  await expect(page.getByTestId('environment-badge')).toHaveAttribute('data-environment', 'remote');
  await expect(page.getByTestId('nav-local')).toHaveCount(0);
  await openTab(page, 'studio');
  await expect(page.getByTestId('compose-session')).toContainText('下一次生成将开始一个新会话');
  await expect(page.getByTestId('gallery').getByTestId('continue-session')).toBeDisabled();
  await openTab(page, 'settings');
  await page.getByTestId('env-local').click();
  await expect(page.getByTestId('environment-badge')).toHaveAttribute('data-environment', 'local');
});

test('local console: an image pack made from a gallery selection publishes once per Idempotency-Key and shows rejections', async ({ page, harness }) => {
  await openStudio(page, harness.url);
  await compose(page, { prompt: 'Two bottles of shampoo', model: 'nano-banana-2', resolution: '1K', n: '2' });
  await generateAndWait(page, 'succeeded');
  const images = page.getByTestId('gallery').getByTestId('gallery-image');
  await images.nth(0).click();
  await images.nth(1).click({ modifiers: ['Control'] });
  await page.getByTestId('make-pack').click();
  await page.getByPlaceholder(/款式编码|Style code/).fill('SHAMPOO-01');
  await page.getByTestId('pack-create').click();
  const pack = page.getByTestId('pack-row');
  await expect(pack).toHaveCount(1);
  await pack.getByRole('textbox').fill('publish-1');
  await pack.getByTestId('pack-publish').click();
  await expect(page.getByTestId('publish-result')).toContainText(/版本 1|version 1/);
  // The same Idempotency-Key returns the earlier result: no new version.
  await pack.getByTestId('pack-publish').click();
  await expect(pack).toContainText(/1 个版本|1 version/);
  // Unsaved draft changes: the publish is rejected with the reason.
  await pack.getByRole('button', { name: /标记为未保存|Mark unsaved/ }).click();
  await pack.getByRole('textbox').fill('publish-2');
  await pack.getByTestId('pack-publish').click();
  await expect(page.getByTestId('publish-result')).toContainText(/未保存|unsaved/);
  await screenshot(page, 'local-console-packs');
  // No card of the console is cut off or needs its own scrollbar (the keys table included).
  expect(await clippedCards(page)).toEqual([]);
  await page.setViewportSize({ width: 1100, height: 720 });
  expect(await clippedCards(page)).toEqual([]);
});

test('without a keychain the settings say so plainly and keep keys in memory for this run only', async ({ page }) => {
  const started = await startHarness({ extraArgs: ['--memory-keys'] });
  try {
    await openStudio(page, started.harness.url);
    await openTab(page, 'settings');
    const status = page.getByTestId('keychain-status');
    await expect(status).toContainText('系统钥匙串不可用');
    await expect(status).toContainText('只在本次运行期间保存在内存中');
    await expect(page.getByText('密钥将仅在本次运行期间保存在内存中（钥匙串不可用）。').first()).toBeVisible();
    // Nothing claims the key sits in the keychain when there is none.
    await expect(page.getByText('密钥保存在钥匙串中', { exact: false })).toHaveCount(0);
    // A Remote key is bound to an address, so the address comes first.
    await page.getByTestId('remote-url').fill('https://images.example.com');
    await page.getByRole('button', { name: '保存', exact: true }).click();
    await expect(page.getByTestId('key-needs-url-remote')).toHaveCount(0);
    await page.getByTestId('key-input-remote').fill('sk_' + 'M'.repeat(32));
    await page.getByTestId('key-input-remote').press('Enter');
    await expect(page.getByTestId('key-state-remote')).toContainText('仅在本次运行期间保存在内存中');
    await screenshot(page, 'settings-no-keychain');
  } finally {
    await started.stop();
  }
});
