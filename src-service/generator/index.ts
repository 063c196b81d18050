// The synthetic vendor: renders a turn's images in parallel, each deterministic for (turn id, index).
import { MODELS, PURPOSES, pixelSize, type ConcreteModelId, type PurposeId, type Ratio, type Resolution } from '../../src-shared/catalog.ts';
import { renderImage } from './render.ts';

export interface GenerationJob {
  turnId: string;
  model: ConcreteModelId;
  ratio: Ratio;
  resolution: Resolution;
  purpose: PurposeId;
  referencePaths: readonly string[];
  downgraded: boolean;
}

export interface RenderedImage {
  index: number;
  width: number;
  height: number;
}

/**
 * At most this many images render at once across all requests: one turn's n=4 runs fully in parallel, while
 * many concurrent 4K requests queue instead of multiplying memory (a 4K frame is ~50 MB while it is encoded).
 */
export const MAX_PARALLEL_RENDERS = 4;
let running = 0;
const waiting: Array<() => void> = [];

async function withRenderSlot<T>(fn: () => Promise<T>): Promise<T> {
  // A released slot passes straight to the next waiter, so the count never exceeds the limit.
  if (running >= MAX_PARALLEL_RENDERS) await new Promise<void>((resolve) => waiting.push(resolve));
  else running++;
  try {
    return await fn();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

/** Renders image `index` of the job to `outputPath`. */
export async function renderTurnImage(job: GenerationJob, index: number, outputPath: string): Promise<RenderedImage> {
  const { width, height } = pixelSize(job.ratio, job.resolution);
  await withRenderSlot(() => renderImage(
    {
      width,
      height,
      seedText: `${job.turnId}:${index}`,
      whiteBackground: PURPOSES[job.purpose].whiteBackground,
      caption: `${MODELS[job.model].id} · ${job.ratio} · ${job.resolution}`,
      referencePaths: job.referencePaths,
      downgraded: job.downgraded,
    },
    outputPath,
  ));
  return { index, width, height };
}
