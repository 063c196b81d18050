// The synthetic vendor: renders a turn's images in parallel, each deterministic for (turn id, index).
import { MODELS, PIXEL_SIZES, PURPOSES, type ConcreteModelId, type PurposeId, type Ratio, type Resolution } from '../../src-shared/catalog.ts';
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

export function imageSize(ratio: Ratio, resolution: Resolution): { width: number; height: number } {
  return PIXEL_SIZES[ratio][resolution];
}

/** Renders image `index` of the job to `outputPath`. */
export async function renderTurnImage(job: GenerationJob, index: number, outputPath: string): Promise<RenderedImage> {
  const { width, height } = imageSize(job.ratio, job.resolution);
  await renderImage(
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
  );
  return { index, width, height };
}
