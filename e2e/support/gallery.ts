// The gallery specs' shared steps (e2e/gallery.spec.ts, e2e/boards.spec.ts): a library seeded through the harness's
// IPC bridge against the real local service, and reading the virtualised grid.
import type { Locator, Page } from '@playwright/test';
import type { ImageRecord } from '../../src-shared/ipc/generation.ts';
import type { StudioApi } from '../../src-shared/ipc/index.ts';
import { expect } from '../fixtures/harness.ts';

/** The e2e tsconfig has no DOM lib: the few element members the gallery specs read inside the page. */
export interface PageElement {
  scrollTop: number;
  clientHeight: number;
  scrollHeight: number;
  tabIndex: number;
  getAttribute(name: string): string | null;
}

const RATIOS = ['16:9', '9:16', '1:1', '3:4', '4:5'] as const;
export const PROMPTS = [
  'A ceramic mug on a walnut table',
  'A linen tote bag on a white sweep',
  'Leather wallet, four angles',
  'Olive oil bottle with a paper label',
  'Wool scarf folded on slate',
  'Running shoe floating, soft shadow',
  'Glass perfume bottle in morning light',
  'Bamboo toothbrush set, top view',
  'Cotton shirt on a wooden hanger',
  'Stainless water bottle with condensation',
];

export interface SeedPlan {
  sessions: number;
  turnsPerSession: number;
  /** Distinct first prompts, so each session gets its own automatic title. */
  prompts?: string[];
}

/**
 * Generates sessions × turns × 4 images on the local service through window.api (the harness's IPC bridge):
 * sessions run side by side, the turns of one session one after the other (each continues its session).
 * Waits until every image is downloaded and in the gallery.
 */
export async function seed(page: Page, plan: SeedPlan): Promise<number> {
  const expected = plan.sessions * plan.turnsPerSession * 4;
  await page.evaluate(
    async ({ sessions, turnsPerSession, ratios, prompts }) => {
      const api = (globalThis as unknown as { api: StudioApi }).api;
      const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
      async function waitTurn(turnId: string): Promise<string> {
        for (;;) {
          const res = await api.libraryGetTurn({ turnId });
          if (!res.ok) throw new Error(res.error.message);
          if (res.value.status !== 'running') {
            if (res.value.status !== 'succeeded') throw new Error(`turn ${turnId} ended ${res.value.status}`);
            return res.value.sessionId;
          }
          await sleep(100);
        }
      }
      await Promise.all(
        Array.from({ length: sessions }, async (_, s) => {
          let sessionId: string | undefined;
          for (let turn = 0; turn < turnsPerSession; turn++) {
            const prompt = `${prompts[s % prompts.length]} — take ${turn + 1}`;
            const ratio = ratios[(s + turn) % ratios.length];
            const started = await api.generateStart({
              request: { prompt, model: 'nano-banana-2', resolution: '1K', n: 4, ratio },
              ...(sessionId ? { sessionId } : {}),
            });
            if (!started.ok) throw new Error(started.error.message);
            sessionId = await waitTurn(started.value.turnId);
          }
        }),
      );
    },
    {
      sessions: plan.sessions,
      turnsPerSession: plan.turnsPerSession,
      ratios: [...RATIOS],
      prompts: plan.prompts ?? PROMPTS,
    },
  );
  await expect.poll(() => libraryImages(page).then((all) => all.filter((im) => im.download === 'done').length), { timeout: 120_000 }).toBe(expected);
  return expected;
}

/** Every image of the library (all pages), straight from main. */
export async function libraryImages(page: Page): Promise<ImageRecord[]> {
  return page.evaluate(async () => {
    const api = (globalThis as unknown as { api: StudioApi }).api;
    const out: ImageRecord[] = [];
    let cursor: string | null = null;
    do {
      const res = await api.libraryGallery({ filters: {}, cursor, limit: 200 });
      if (!res.ok) throw new Error(res.error.message);
      for (const group of res.value.groups) out.push(...group.images);
      cursor = res.value.nextCursor;
    } while (cursor);
    return out;
  });
}

export async function box(locator: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  const b = await locator.boundingBox();
  if (!b) throw new Error('no bounding box');
  return b;
}

/** Ids of the tiles in the DOM, in display order. */
function tileIds(scope: Locator): Promise<string[]> {
  return scope.getByTestId('gallery-image').evaluateAll((els) => els.map((e) => (e as unknown as PageElement).getAttribute('data-image-id') ?? ''));
}

/** Every tile id the grid shows, scrolling it from top to bottom (it is virtualised), in display order. */
export async function allTileIds(grid: Locator): Promise<string[]> {
  const seen: string[] = [];
  await grid.evaluate((node) => ((node as unknown as PageElement).scrollTop = 0));
  for (;;) {
    await grid.page().waitForTimeout(60);
    for (const id of await tileIds(grid)) if (!seen.includes(id)) seen.push(id);
    const done = await grid.evaluate((node) => {
      const el = node as unknown as PageElement;
      if (el.scrollTop + el.clientHeight >= el.scrollHeight - 1) return true;
      el.scrollTop += el.clientHeight / 2;
      return false;
    });
    if (done) break;
  }
  await grid.page().waitForTimeout(60);
  for (const id of await tileIds(grid)) if (!seen.includes(id)) seen.push(id);
  return seen;
}

/** The id of the grid's focused image (aria-activedescendant → tile-<id>). */
export async function activeImage(grid: Locator): Promise<string | null> {
  const ref = await grid.getAttribute('aria-activedescendant');
  return ref ? ref.replace(/^tile-/, '') : null;
}
