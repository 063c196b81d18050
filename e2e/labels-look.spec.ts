// No label cut off (issue 26 "Looks like a creative tool", after a designer's review at 1440 × 900): the places that
// were, with the data that cut them. A marketplace list with a long name run over 20 products within a budget (the
// batch select: "淘宝 / 天猫 / 京东 × 20 个商品 · Finished · 1 over budget · date"), a shot with a long prompt
// addition (the shot-list table: its settings and addition shown whole, no sideways scrollbar), the catalog
// sessions' library tiles with a rating ("CN-003 · 细节特写" beside the stars), the gallery's totals ("20 sessions")
// and session headers ("2 images · 11/27/2026, 07:20"). Both sizes, both themes, both languages, real scrollbars;
// screenshots in .tmp/shots-labels/ to be looked at.
import type { Page } from '@playwright/test';
import type { BatchDetail, BatchPlan, Product, ShotList } from '../src-shared/ipc/index.ts';
import { expect, test } from './fixtures/harness.ts';
import { batchDone } from './support/catalog.ts';
import { ipc } from './support/ipc.ts';
import { cutLabels } from './support/look.ts';
import { openStudio, openTab, problemsInEveryLook } from './support/studio.ts';

const NAMES = ['陶瓷马克杯 白色 350ml', '不锈钢保温杯 深蓝 500ml', '亚麻餐垫 米色', '竹制砧板 大号', '玻璃花瓶 手工吹制', '羊毛围巾 灰色', '帆布托特包', '香薰蜡烛 雪松', '真皮钱包 棕色', '橄榄油 500ml'];
const LIST_NAME = '淘宝 / 天猫 / 京东';
const ADDITION = '近距离展示材质纹理与做工细节，柔和侧光，浅景深，干净的浅灰色背景，突出缝线与品牌标志';
const SHOT_DETAIL = '细节特写';

/** What is cut in each place a designer looks at, in one look (size, theme, language). */
async function cutPlaces(page: Page, tag: string, listId: string): Promise<string[]> {
  const problems: string[] = [];
  const check = async (place: string, root: string) => {
    await page.screenshot({ path: `.tmp/shots-labels/${place}-${tag}.png` });
    for (const label of (await page.evaluate(cutLabels(root))) as string[]) {
      // Known limit: at 960 the gallery panel is too narrow for a long session title (a product's name and SKU);
      // it ends in an ellipsis there, and the library shows it whole (checked at this size too).
      if (place === 'gallery' && tag.startsWith('960') && label.startsWith('button.session-title')) continue;
      problems.push(`${place} ${tag}: cut ${label}`);
    }
  };
  await openTab(page, 'studio');
  await expect(page.getByTestId('gallery-totals')).toBeVisible();
  await check('gallery', '[data-testid="gallery-panel"]');

  await page.getByTestId('open-library').click();
  await expect(page.getByTestId('tile-catalog').first()).toBeVisible();
  await page.waitForTimeout(200);
  await check('library', '[data-testid="library-view"]');
  await page.getByTestId('close-library').click();

  await page.getByTestId('open-batch').click();
  await page.getByTestId('shot-list-select').selectOption(listId);
  await expect(page.getByTestId('shot-addition').nth(1)).toHaveValue(ADDITION);
  await expect(page.getByTestId('batch-select')).toBeVisible();
  await page.waitForTimeout(200);
  await check('catalog', '[data-testid="batch-page"]');
  await page.getByTestId('batch-shot-list').screenshot({ path: `.tmp/shots-labels/catalog-shot-list-${tag}.png` });
  await page.getByTestId('batch-select').locator('..').screenshot({ path: `.tmp/shots-labels/catalog-batch-select-${tag}.png` });
  // The shot-list table needs no sideways scrollbar at 1440 (its prompt additions are on lines of their own).
  const table = page.locator('.batch-shots-scroll');
  const sideways = await table.evaluate((el) => (el as unknown as { scrollWidth: number; clientWidth: number }).scrollWidth > (el as unknown as { clientWidth: number }).clientWidth + 1);
  if (sideways && tag.startsWith('1440')) problems.push(`catalog ${tag}: the shot-list table scrolls sideways`);
  return problems;
}

test('no label cut off in the batch select, the shot-list table, catalog tiles and the gallery, at 1440 × 900 and 960 × 600', async ({ page, harness }) => {
  test.setTimeout(300_000);
  const products: Product[] = [];
  for (let i = 0; i < 20; i++) {
    const name = `${NAMES[i % NAMES.length]}${i >= NAMES.length ? ` ${Math.floor(i / NAMES.length) + 1} 号` : ''}`;
    products.push(await ipc<Product>(harness, 'product:save', { sku: `CN-${String(i + 1).padStart(3, '0')}`, name, prompt: `a product photo of ${name}` }));
  }
  const list = await ipc<ShotList>(harness, 'shotlist:save', {
    name: LIST_NAME,
    shots: [
      { name: '主图', purpose: 'main_white', model: 'seedream-5-0-pro', ratio: '1:1', resolution: '1K', n: 1, promptAddition: '' },
      { name: SHOT_DETAIL, purpose: 'detail', model: 'seedream-5-0-pro', ratio: '3:4', resolution: '1K', n: 1, promptAddition: ADDITION },
    ],
  });
  // Within a budget one job short of the plan: the batch ends "Finished · 1 over budget" (its option says so), and
  // every product has a session with images (the gallery's "20 sessions").
  const productIds = products.map((p) => p.id);
  const plan = await ipc<BatchPlan>(harness, 'batch:plan', { productIds, shotListId: list.id });
  const batch = await ipc<BatchDetail>(harness, 'batch:create', { productIds, shotListId: list.id, concurrency: 4, budget: plan.total - 1 });
  const done = await batchDone(harness, batch.id);
  expect(done.jobs.filter((j) => j.status === 'over_budget').length).toBeGreaterThan(0);
  // Rated detail shots: their tiles carry the stars beside "SKU · shot".
  const details = done.jobs.filter((j) => j.shotName === SHOT_DETAIL).flatMap((j) => j.imageIds);
  expect(details.length).toBeGreaterThan(0);
  await ipc(harness, 'library:mark', { imageIds: details, rating: 3 });

  await openStudio(page, harness.url);
  await expect(page.getByTestId('gallery-totals')).toContainText(/20 (sessions|个会话)/);
  const problems = await problemsInEveryLook(page, (look) => cutPlaces(page, look.tag, list.id));
  expect(problems).toEqual([]);
});
