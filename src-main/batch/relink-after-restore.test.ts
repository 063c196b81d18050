// A batch job sent after the backup a restored library came from is relinked from the send journal with the request
// and price it went out with (generation/bring-back.ts, wired as create-app does), not the plan's the restored row
// held: a first send may have taken a product master chosen after the plan, and a retry by hand resends "as is".
// Real SQLite and a real journal file; nothing is sent.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { estimateCredits } from '../../src-shared/pricing.ts';
import { bringBackSentTurns } from '../generation/index.ts';
import { LibraryRepo, openLibraryDatabase, SendJournal } from '../library/index.ts';
import { BatchRepo } from './batch-repo.ts';

describe('a batch job brought back after a restore', () => {
  it('holds the request and price it was sent with (the master in its references), linked to its turn', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'studio-relink-'));
    const db = openLibraryDatabase(join(dataDir, 'library.db'));
    const repo = new LibraryRepo(db);
    const batches = new BatchRepo(db);
    repo.createSession('ls_1', 'local', 1);
    const planned = { prompt: 'a mug', model: 'gpt-image-2' as const, quality: 'low' as const, ratio: '1:1' as const };
    const batch = { id: 'bt_1', name: 'b', environment: 'local' as const, shotListId: 'sl_1', shotListName: 'l', state: 'paused' as const, pause: null, budget: null, concurrency: 1, planned: 5, createdAt: 1, updatedAt: 1 };
    batches.createBatch(batch, [{ id: 'bj_1', position: 0, productId: 'pr_1', sku: 'SKU-1', productName: 'Mug', shotIndex: 0, shotName: 'main', purpose: 'free', sessionId: 'ls_1', request: planned, estimate: 5 }]);
    // Sent with the master the restored library never saw: one reference more, 6 credits on gpt-image-2 at low.
    const sent = { ...planned, ref_image_ids: ['img_Master01'] };
    const estimate = estimateCredits({ model: 'gpt-image-2', prompt: sent.prompt, referenceCount: 1, quality: 'low' });
    new SendJournal(dataDir).record({ turnId: 'lt_1', sessionId: 'ls_1', environment: 'local', request: sent, estimate, startedAt: 10, retryOf: null, batchJobId: 'bj_1' });

    const relinkJob = (jobId: string, turnId: string, as: Parameters<BatchRepo['markSent']>[2]) => batches.markSent(jobId, turnId, as);
    expect(bringBackSentTurns({ db, repo, journal: new SendJournal(dataDir), relinkJob })).toEqual(['lt_1']);
    expect(batches.getJob('bj_1')).toMatchObject({ status: 'sent', turnId: 'lt_1', request: sent, estimate: 6 });
    expect(repo.getTurn('lt_1')?.request).toEqual(sent);
    db.close();
  });
});
