// A dropped file is held to the limits of a request (issue 25 item 4): generation data listing 100,000 reference
// ids is refused at once with a notice saying why, the form keeps what it had, and the page asks main for none
// of those images (it used to send one library:get-image per id and freeze).
import sharp from 'sharp';
import { GENERATION_DATA_KEYWORD } from '../src-shared/generation-data.ts';
import { insertITXt } from '../src-shared/png-chunks.ts';
import { expect, test } from './fixtures/harness.ts';
import { compose, dropFile, openStudio } from './support/studio.ts';

test('a dropped PNG whose generation data lists 100,000 reference ids is refused at once and changes nothing', async ({ page, harness }) => {
  const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 90, g: 90, b: 90 } } }).png().toBuffer();
  const ids = Array.from({ length: 100_000 }, (_, i) => `img_${String(i).padStart(8, '0')}`);
  const data = {
    schemaVersion: 1,
    app: { name: 'Image Studio', version: '0.1.0' },
    imageId: 'img_Flood001',
    turnId: 'lt_flood',
    serviceTurnId: null,
    sessionId: 'ls_flood',
    serviceSessionId: null,
    environment: 'local',
    requestId: null,
    request: { prompt: 'from the flood', model: 'gpt-image-2', ref_image_ids: ids },
    referenceImageIds: ids,
    model: 'gpt-image-2',
    resolution: '1K',
    quality: null,
    width: 64,
    height: 64,
    creditsCharged: null,
    creditsEstimated: 1,
    createdAt: '2026-11-26T00:00:00.000Z',
  };
  const flood = Buffer.from(insertITXt(png, GENERATION_DATA_KEYWORD, JSON.stringify(data)));

  await openStudio(page, harness.url);
  await compose(page, { prompt: 'kept as it is' });
  const lookups: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/ipc/library%3Aget-image')) lookups.push(r.url());
  });
  await dropFile(page, page.getByTestId('prompt'), flood, 'flood.png');
  const notice = page.getByTestId('tray-notice');
  await expect(notice).toHaveAttribute('data-kind', 'oversized_generation_data', { timeout: 5_000 });
  await expect(notice).toContainText('flood.png');
  await expect(page.getByTestId('prompt')).toHaveValue('kept as it is');
  await expect(page.getByTestId('reference-item')).toHaveCount(0);
  expect(lookups).toEqual([]);
});
