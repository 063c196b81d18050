// A dropped file is held to the limits of a request (issue 25 item 4): generation data listing 100,000 reference
// ids is refused at once with a notice saying why, the form keeps what it had, and the page asks main for none
// of those images (it used to send one library:get-image per id and freeze). Within the limits, the file's
// references are looked up in one library:get-images call.
import sharp from 'sharp';
import { GENERATION_DATA_KEYWORD } from '../src-shared/generation-data.ts';
import { insertITXt } from '../src-shared/png-chunks.ts';
import { expect, test, type Harness } from './fixtures/harness.ts';
import { ipc, until } from './support/ipc.ts';
import { compose, dropFile, frames, openStudio } from './support/studio.ts';

/** A small PNG with no generation data of its own. */
function plainPng(): Promise<Buffer> {
  return sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 90, g: 90, b: 90 } } }).png().toBuffer();
}

/** The PNG carrying generation data that lists these reference ids (as an export writes it, or a crafted file). */
function withGenerationData(png: Buffer, ids: string[], prompt: string): Buffer {
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
    request: { prompt, model: 'gpt-image-2', ref_image_ids: ids },
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
  return Buffer.from(insertITXt(png, GENERATION_DATA_KEYWORD, JSON.stringify(data)));
}

/** `n` images made in this library through IPC (how they are made is not what these tests are about). */
async function imagesInLibrary(harness: Harness, n: number): Promise<string[]> {
  const { turnId } = await ipc<{ turnId: string }>(harness, 'generate:start', { request: { prompt: 'to reuse', model: 'nano-banana-2', resolution: '1K', n } });
  const turn = await until('the run to succeed', async () => {
    const t = await ipc<{ status: string; images: Array<{ id: string }> }>(harness, 'library:get-turn', { turnId });
    return t.status === 'succeeded' ? t : null;
  }, 60_000);
  return turn.images.map((i) => i.id);
}

test('a dropped PNG whose generation data lists 100,000 reference ids is refused at once and changes nothing', async ({ page, harness }) => {
  const png = await plainPng();
  const ids = Array.from({ length: 100_000 }, (_, i) => `img_${String(i).padStart(8, '0')}`);
  const flood = withGenerationData(png, ids, 'from the flood');

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

test('a dropped PNG listing the most references a request carries looks them up in one call and recalls those in the library', async ({ page, harness }) => {
  const known = await imagesInLibrary(harness, 2);
  await openStudio(page, harness.url);
  // 16 references (every model's most): the two in this library and 14 from another computer's.
  const ids = [...known, ...Array.from({ length: 14 }, (_, i) => `img_elsewhere${i}`)];

  // Bodies of the look-ups: one get-images for the file's list; the tray then shows the references it took (each
  // asks for its own thumbnail's record), never the ones from elsewhere.
  const single: string[] = [];
  const many: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/ipc/library%3Aget-image')) single.push(r.postData() ?? '');
    if (r.url().endsWith('/ipc/library%3Aget-images')) many.push(r.postData() ?? '');
  });
  await dropFile(page, page.getByTestId('prompt'), withGenerationData(await plainPng(), ids, 'recalled with references'), 'refs.png');
  const notice = page.getByTestId('tray-notice');
  await expect(notice).toHaveAttribute('data-kind', 'recalled');
  await expect(notice).toContainText('14');
  await expect(page.getByTestId('prompt')).toHaveValue('recalled with references');
  await expect(page.getByTestId('reference-item')).toHaveCount(2);
  // The page keeps painting, and the file's list was looked up in one call, not one per id.
  await frames(page, 5);
  expect(many.map((body) => (JSON.parse(body) as { imageIds: string[] }).imageIds)).toEqual([ids]);
  expect(single.filter((body) => body.includes('img_elsewhere'))).toEqual([]);
});
