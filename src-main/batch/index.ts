// Front door of catalog production: products and shot lists, batch runs through the generation runner, the
// marketplace export and the report. createBatch builds the repos and the runner over the library database.
import type { GenerationRunner } from '../generation/index.ts';
import type { HandlerTable } from '../ports/ipc-table.ts';
import { BatchRepo } from './batch-repo.ts';
import { BatchRunner } from './batch-runner.ts';
import { CatalogRepo } from './catalog-repo.ts';
import { ProductMasters } from './product-master.ts';
import { createBatchHandlers, type BatchHandlerDeps, type BatchMethods } from './handlers.ts';

export type { BatchMethods } from './handlers.ts';
export { BatchRunner } from './batch-runner.ts';
export { BatchRepo } from './batch-repo.ts';

/** What catalog production needs from the app: the handlers' needs, with the generation runner its jobs go through. */
export type BatchDeps = Omit<BatchHandlerDeps, 'catalog' | 'batches' | 'runner' | 'changed'> & {
  runner: GenerationRunner;
  /** A batch (or one of its jobs) changed: the windows re-read it. */
  changed: (batchId: string, jobId?: string) => void;
  onTrouble: (message: string, error: unknown) => void;
};

export interface Batch {
  runner: BatchRunner;
  handlers: HandlerTable<BatchMethods>;
}

/** Catalog production over the library database; batches that were running when the app stopped go on. */
export function createBatch(deps: BatchDeps): Batch {
  const batches = new BatchRepo(deps.db);
  const catalog = new CatalogRepo(deps.db);
  const masters = new ProductMasters(deps.db, batches);
  const clock = deps.now ? { now: deps.now } : {};
  const runner = new BatchRunner({
    repo: deps.repo,
    batches,
    runner: deps.runner,
    environment: deps.environment,
    balance: deps.balance,
    language: deps.language,
    changed: deps.changed,
    onTrouble: deps.onTrouble,
    master: (productId) => masters.get(productId),
    ...clock,
  });
  runner.recover();
  const handlers = createBatchHandlers({ ...deps, catalog, batches, runner, ...clock });
  return { runner, handlers };
}
