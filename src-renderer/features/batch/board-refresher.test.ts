// The board's refresher (board-queries.ts boardRefresher) on a real QueryClient, with its reads and its timer in the
// test's hands: an image event naming images the board does not hold is not dropped while a read that may bring them
// is on its way (a re-shoot's new candidates downloaded while their row was being read: the read answered
// "downloading", and the board said so for good); with nothing on its way, such an event reads nothing.
import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PurposeId } from '../../../src-shared/catalog.ts';
import type { CatalogBoard } from '../../../src-shared/ipc/batch-board.ts';
import { boardKey, boardRefresher } from './board-queries.ts';

const BATCH = 'bat_1';
const PRODUCT = 'prd_1';

let timers: Array<() => void> = [];
beforeEach(() => {
  timers = [];
  vi.stubGlobal('window', {
    setTimeout: (cb: () => void) => timers.push(cb),
    clearTimeout: () => {
      timers = [];
    },
  });
});
afterEach(() => vi.unstubAllGlobals());

/** A board of one product whose one cell holds job_1 and its candidate img_1. */
function clientWithBoard(): QueryClient {
  const client = new QueryClient();
  const board: CatalogBoard = {
    batchId: BATCH,
    state: 'done',
    shots: [{ name: 'main', kind: 'free' as PurposeId }],
    products: [{ productId: PRODUCT, sku: 'SKU-1', name: 'mug', masterImageId: null, masterChosen: false }],
    cells: [
      {
        productId: PRODUCT, sku: 'SKU-1', shotName: 'main', status: 'done', startedAt: null, code: null, requestId: null, pick: null, charged: 0, estimated: 0, jobIds: ['job_1'],
        candidates: [{ imageId: 'img_1', jobId: 'job_1', download: 'done', rating: 0, rejected: false, starred: false }],
      },
    ],
  };
  client.setQueryData([...boardKey(BATCH), 'whole'], board);
  return client;
}

/** Reads that wait for the test to answer them, counted. */
function heldReads() {
  const answers: Array<() => void> = [];
  const asked = { rows: [] as string[][], whole: 0 };
  const wait = () => new Promise<void>((done) => answers.push(done));
  return {
    asked,
    reads: {
      rows: (ids: string[]) => {
        asked.rows.push(ids);
        return wait();
      },
      whole: () => {
        asked.whole++;
        return wait();
      },
    },
    /** Answers every read on its way, and lets their promises settle. */
    answer: async () => {
      for (const done of answers.splice(0)) done();
      await new Promise((r) => setTimeout(r, 0));
    },
  };
}

const runTimer = () => timers.splice(0).forEach((cb) => cb());

describe('board refresher', () => {
  it('reads a row again when images it does not hold yet come while that row is being read', async () => {
    const { asked, reads, answer } = heldReads();
    const refresher = boardRefresher(clientWithBoard(), BATCH, reads);
    refresher.job('job_1');
    runTimer();
    expect(asked.rows).toEqual([[PRODUCT]]);
    // The re-shoot's candidates are downloaded while the read is on its way: the board does not hold them yet.
    refresher.images(new Set(['img_new']));
    await answer();
    runTimer();
    expect(asked.rows).toEqual([[PRODUCT], [PRODUCT]]);
  });

  it('reads the whole board again when such images come while the whole board is being read', async () => {
    const { asked, reads, answer } = heldReads();
    const refresher = boardRefresher(clientWithBoard(), BATCH, reads);
    // A job the board does not hold (a new re-run): the whole board is read.
    refresher.job('job_rerun');
    runTimer();
    expect(asked.whole).toBe(1);
    refresher.images(new Set(['img_new']));
    await answer();
    runTimer();
    expect(asked.whole).toBe(2);
  });

  it('reads nothing for images the board does not hold when no read is on its way, and the rows holding images otherwise', async () => {
    const { asked, reads, answer } = heldReads();
    const refresher = boardRefresher(clientWithBoard(), BATCH, reads);
    refresher.images(new Set(['img_elsewhere']));
    expect(timers).toHaveLength(0);
    refresher.job('job_1');
    runTimer();
    await answer();
    // The read is answered: images the board does not hold read nothing again.
    refresher.images(new Set(['img_elsewhere']));
    expect(timers).toHaveLength(0);
    refresher.images(new Set(['img_1']));
    runTimer();
    expect(asked.rows).toEqual([[PRODUCT], [PRODUCT]]);
    expect(asked.whole).toBe(0);
  });
});
