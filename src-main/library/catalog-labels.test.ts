// Library tiles of catalog sessions say which product and shot they are: images a Catalog batch made carry
// "SKU · shot" (ImageRecord.catalog) in the gallery's pages and in an image's details (the viewer's), with the
// product's name; a studio image carries none. Through the app core's IPC against the real local service and a
// real library.db.
import { describe, expect, it } from 'vitest';
import type { BatchDetail, GalleryPage, ImageDetail } from '../../src-shared/ipc/index.ts';
import { cheap, useEnglishApp } from '../batch/batch-app.test-support.ts';

describe('catalog labels on library images', () => {
  const { c } = useEnglishApp('studio-catalog-labels-');

  it('gives each image of a batch its SKU and shot name, and a studio image none', async () => {
    const products = await c.products(2, 'LBL');
    const list = await c.list('labels', [cheap('main'), cheap('detail')]);
    const created = await c.ok<BatchDetail>('batchCreate', { productIds: products.map((p) => p.id), shotListId: list.id, concurrency: 2, budget: 1000 });
    await c.settled(created.id, 'done');
    const studio = await c.ok<{ turn: { id: string } }>('generateStart', { request: { prompt: 'a studio mug', model: 'seedream-5-0-pro', resolution: '1K', n: 1 } });
    await c.until('the studio turn to end', async () => {
      const turn = await c.ok<{ status: string }>('libraryGetTurn', { turnId: studio.turn.id });
      return turn.status === 'running' ? null : turn;
    });

    const page = await c.ok<GalleryPage>('libraryGallery', { filters: {}, cursor: null, limit: 10 });
    const images = page.groups.flatMap((g) => g.images);
    expect(images).toHaveLength(5);
    const labels = images.filter((i) => i.turnId !== studio.turn.id).map((i) => i.catalog && `${i.catalog.sku} · ${i.catalog.shot}`);
    expect(labels.sort()).toEqual(['LBL-1 · detail', 'LBL-1 · main', 'LBL-2 · detail', 'LBL-2 · main']);
    expect(images.find((i) => i.turnId === studio.turn.id)?.catalog).toBeUndefined();

    // The viewer's details of each image say the same, with the product's name.
    for (const image of images) {
      const { image: detail } = await c.ok<ImageDetail>('libraryGetImage', { imageId: image.id });
      if (image.turnId === studio.turn.id) expect(detail.catalog).toBeUndefined();
      else {
        expect(detail.catalog).toEqual(image.catalog);
        expect(detail.catalog?.productName).toBe(products.find((p) => p.sku === image.catalog?.sku)?.name);
      }
    }
  });
});
