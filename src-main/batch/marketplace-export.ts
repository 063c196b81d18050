// Marketplace export (docs/export-presets.md): a batch's images resized to a marketplace preset, one folder per
// product (named from its SKU), with a `manifest.csv` listing every image, written or not. White-background shots
// are checked first (./white-check.ts); a file that cannot fit the preset's size limit is flagged, not shipped
// blurred. Like the single-image export it never replaces a file: names get `_2`, `_3`… and are created exclusively.
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { PURPOSES, type PurposeId } from '../../src-shared/catalog.ts';
import { nameKey, renderTemplate, sanitizeFileStem, slug, templateDate, type TemplatePart } from '../../src-shared/export-template.ts';
import type { ExportSelection, MarketplaceExportFile, MarketplaceExportSummary, WhiteCheck } from '../../src-shared/ipc/batch.ts';
import { generationDataXmp, type GenerationData } from '../../src-shared/generation-data.ts';
import { MARKETPLACE_TEMPLATE_FIELDS, sizeForImage, type MarketplacePreset, type MarketplaceTemplateField, type SizeForImage } from '../../src-shared/marketplace-presets.ts';
import { isDiskFull, StudioError } from '../domain/errors.ts';
import { csvDocument, type CsvCell } from '../export/index.ts';
import { createExclusive, errorCode, EXTENSIONS, notWritable, prepareFolder, templatePartsOrThrow } from '../export/index.ts';
import { whiteBorderCheck } from './white-check.ts';

/** One image of a batch, with what its file name and manifest row say about it. */
export interface MarketplaceItem {
  imageId: string;
  sku: string;
  productName: string;
  shotName: string;
  purpose: PurposeId;
  /** The model that ran (not `auto`). */
  model: string;
  /** Credits charged for this image (its share of the job). */
  credits: number;
  turnId: string;
  /** 1-based number of the image within its product × shot: `{index}`, so a name does not move when another image is flagged. */
  index: number;
  createdAt: number;
  /** The source image's size. */
  width: number;
  height: number;
  downloaded: boolean;
  /** The cell's pick (the manifest's `picked` column says so, in every mode). */
  picked: boolean;
  /** What made it (prompt first): written as XMP, the prompt as the caption (dc:description); null when unknown. */
  generation: GenerationData | null;
}

/** A product × shot that `picks` mode has nothing to write for, and why (a manifest row with status `no_pick`). */
export interface MissingPick {
  sku: string;
  productName: string;
  shotName: string;
  purpose: PurposeId;
  reason: 'no_pick' | 'no_result' | 'pick_rejected';
}

export interface MarketplaceExportOptions {
  /** Absolute; made if missing. */
  folder: string;
  preset: MarketplacePreset;
  template: string;
  /** Write white-background shots whose border is not white too (the manifest says `failed`). */
  includeFailedChecks: boolean;
  /** When the export runs: `{date}` (one date for the whole delivery, even across midnight). */
  now: number;
  /** Which images the items are (named in the manifest's `selection` column); default `not_rejected`. */
  mode?: ExportSelection;
  /** `picks` mode: the product × shots without a pick, listed in the manifest and the answer. */
  missingPicks?: MissingPick[];
  /**
   * Credits charged for each product's shots in this batch (re-runs included), by SKU, every product of the batch:
   * the manifest's `product_credits`, and their sum its `batch_credits`.
   */
  productCredits?: ReadonlyMap<string, number>;
}

export interface MarketplaceExportDeps {
  /** The cached file of an image, or null when there is none. */
  imagePath: (imageId: string) => string | null;
  /** After each image: how many are done, and the file written for it (relative to the folder), if any. */
  onProgress?: (done: number, total: number, file: string | null) => void;
}

type FlagReason = MarketplaceExportSummary['flagged'][number]['reason'];

/** JPEG and WebP quality is lowered in steps of 5 down to this; below it artefacts show on product edges. */
export const QUALITY_FLOOR = 60;
const QUALITY_STEP = 5;

export const MANIFEST_HEADER = [
  'file',
  'sku',
  'product',
  'shot',
  'purpose',
  'model',
  'width',
  'height',
  'bytes',
  'format',
  'credits',
  'turn_id',
  'image_id',
  'white_check',
  'white_share',
  'status',
  'selection',
  'picked',
  'candidate',
  'fit',
  'product_credits',
  'batch_credits',
] as const;
/** Text that came from the user (and names made from it) is guarded against spreadsheet formulas. */
const MANIFEST_TEXT_COLUMNS = new Set((['file', 'sku', 'product', 'shot'] as const).map((c) => MANIFEST_HEADER.indexOf(c)));

/** The qualities tried, best first: the preset's, then down in steps, always ending on the floor. */
export function qualitySteps(start: number): number[] {
  const steps: number[] = [];
  for (let q = start; q > QUALITY_FLOOR; q -= QUALITY_STEP) steps.push(q);
  steps.push(Math.min(start, QUALITY_FLOOR));
  return steps;
}

type Pipeline = ReturnType<typeof sharp>;
type Encoder = (image: Pipeline) => Pipeline;

/** Every encoding of the preset's format that is tried, in order, until one fits maxBytes. */
function encoders(preset: MarketplacePreset): Encoder[] {
  switch (preset.format) {
    case 'jpeg':
      return qualitySteps(preset.quality).map((quality) => (image) => image.jpeg({ quality }));
    case 'webp':
      return qualitySteps(preset.quality).map((quality) => (image) => image.webp({ quality }));
    case 'png':
      // Lossless first at the strongest compression; then a 256-colour palette, which halves most photographs.
      return [(image) => image.png({ compressionLevel: 9, adaptiveFiltering: true }), (image) => image.png({ compressionLevel: 9, palette: true, colours: 256, dither: 1 })];
  }
}

interface Encoded {
  content: Buffer;
  width: number;
  height: number;
  fit: SizeForImage['fit'];
}

/**
 * The source at its shot's size under the preset (sizeForImage: filled exactly, or padded with the background
 * when its shape has no size of its own), in sRGB with the sRGB profile embedded, and for JPEG and WebP the
 * prompt as caption and the generation data as XMP; null when no encoding fits maxBytes. Sources with another
 * profile are converted.
 */
async function encodeForPreset(source: Buffer, preset: MarketplacePreset, generation: GenerationData | null): Promise<Encoded | null> {
  const oriented = sharp(source, { failOn: 'error' }).autoOrient();
  const meta = await sharp(source, { failOn: 'error' }).autoOrient().metadata();
  const size = sizeForImage(preset, meta.autoOrient?.width ?? meta.width ?? preset.width, meta.autoOrient?.height ?? meta.height ?? preset.height);
  // Resize once (sharp converts an embedded profile to sRGB on decode); each encoding attempt starts from the pixels.
  const { data, info } = await oriented
    .flatten({ background: preset.background })
    .resize(size.width, size.height, { fit: size.fit === 'pad' ? 'contain' : 'cover', position: 'centre', background: preset.background })
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const raw = { width: info.width, height: info.height, channels: info.channels };
  const xmp = generation !== null && preset.format !== 'png' ? generationDataXmp(generation) : null;
  for (const encode of encoders(preset)) {
    const image = encode(sharp(data, { raw }).withIccProfile('srgb'));
    const out = await (xmp === null ? image : image.withXmp(xmp)).toBuffer({ resolveWithObject: true });
    if (out.data.byteLength <= preset.maxBytes) return { content: out.data, width: out.info.width, height: out.info.height, fit: size.fit };
  }
  return null;
}

function fileValues(item: MarketplaceItem, now: number): Record<MarketplaceTemplateField, string> {
  return {
    // The SKU stays as typed (marketplaces match images to listings by it); the whole name is sanitised after.
    sku: item.sku,
    shot: slug(item.shotName) || 'shot',
    index: String(item.index),
    product: slug(item.productName) || 'product',
    model: slug(item.model),
    purpose: item.purpose,
    date: templateDate(now),
  };
}

/** A folder name per SKU, unique in this export even where two SKUs differ only by case or by characters a name cannot hold. */
function productFolders(items: MarketplaceItem[]): Map<string, string> {
  const folders = new Map<string, string>();
  const used = new Set<string>();
  for (const { sku } of items) {
    if (folders.has(sku)) continue;
    const stem = sanitizeFileStem(sku);
    let name = stem;
    for (let n = 2; used.has(nameKey(name)); n++) name = `${stem}_${n}`;
    used.add(nameKey(name));
    folders.set(sku, name);
  }
  return folders;
}

type Source = { ok: true; bytes: Buffer } | { ok: false; reason: FlagReason };

async function readSource(item: MarketplaceItem, imagePath: MarketplaceExportDeps['imagePath']): Promise<Source> {
  const path = item.downloaded ? imagePath(item.imageId) : null;
  if (path === null) return { ok: false, reason: 'not_downloaded' };
  try {
    return { ok: true, bytes: await readFile(path) };
  } catch (error) {
    return { ok: false, reason: errorCode(error) === 'ENOENT' ? 'not_downloaded' : 'unreadable' };
  }
}

function whiteShareCell(check: WhiteCheck | null): CsvCell {
  return check === null ? null : Math.round(check.whiteShare * 10_000) / 10_000;
}

function whiteCheckCell(check: WhiteCheck | null): string {
  if (check === null) return 'n/a';
  return check.passed ? 'passed' : 'failed';
}

/** The manifest's cost columns: what each product's shots cost in the batch, and the batch's total (every product). */
interface Totals {
  product: (sku: string) => CsvCell;
  batch: CsvCell;
}

function totals(productCredits: ReadonlyMap<string, number> | undefined): Totals {
  if (productCredits === undefined) return { product: () => null, batch: null };
  return { product: (sku) => productCredits.get(sku) ?? null, batch: [...productCredits.values()].reduce((sum, c) => sum + c, 0) };
}

/** One manifest record: flagged images too, with an empty file and their reason as the status. */
function manifestRow(
  item: MarketplaceItem,
  preset: MarketplacePreset,
  file: string | null,
  encoded: Encoded | null,
  check: WhiteCheck | null,
  status: 'written' | FlagReason,
  mode: ExportSelection,
  credits: Totals,
): CsvCell[] {
  return [
    file,
    item.sku,
    item.productName,
    item.shotName,
    item.purpose,
    item.model,
    encoded?.width ?? null,
    encoded?.height ?? null,
    encoded?.content.byteLength ?? null,
    encoded ? preset.format : null,
    item.credits,
    item.turnId,
    item.imageId,
    whiteCheckCell(check),
    whiteShareCell(check),
    status,
    mode,
    item.picked ? 'yes' : '',
    item.index,
    encoded?.fit ?? null,
    credits.product(item.sku),
    credits.batch,
  ];
}

/** A product × shot with no pick to write (`picks` mode): named, with no file, status `no_pick`, and why in `picked`. */
function missingRow(missing: MissingPick, mode: ExportSelection, credits: Totals): CsvCell[] {
  const row: CsvCell[] = MANIFEST_HEADER.map(() => null);
  const set = (column: (typeof MANIFEST_HEADER)[number], value: CsvCell) => (row[MANIFEST_HEADER.indexOf(column)] = value);
  set('sku', missing.sku);
  set('product', missing.productName);
  set('shot', missing.shotName);
  set('purpose', missing.purpose);
  set('status', 'no_pick');
  set('selection', mode);
  set('picked', missing.reason);
  set('product_credits', credits.product(missing.sku));
  set('batch_credits', credits.batch);
  return row;
}

export async function exportMarketplace(items: MarketplaceItem[], options: MarketplaceExportOptions, deps: MarketplaceExportDeps): Promise<MarketplaceExportSummary> {
  const { folder, preset } = options;
  const mode = options.mode ?? 'not_rejected';
  const missing = options.missingPicks ?? [];
  const credits = totals(options.productCredits);
  // Everything wrong with the request before anything is written.
  const parts: TemplatePart<MarketplaceTemplateField>[] = templatePartsOrThrow(options.template, MARKETPLACE_TEMPLATE_FIELDS);
  await prepareFolder(folder);

  const ext = EXTENSIONS[preset.format];
  const folderOf = productFolders(items);
  const written: MarketplaceExportFile[] = [];
  const flagged: MarketplaceExportSummary['flagged'] = [];
  const rows: CsvCell[][] = [];
  let bytes = 0;
  const total = items.length;
  deps.onProgress?.(0, total, null);

  const write = async (dir: string, taken: Set<string>, stem: string, extension: string, content: Uint8Array | string): Promise<string> => {
    try {
      return await createExclusive(dir, stem, extension, content, taken, written.length);
    } catch (error) {
      if (isDiskFull(error)) throw new StudioError('disk_full', { path: dir, needBytes: Buffer.byteLength(content), written: written.length }, { details: { path: dir, written: written.length } });
      throw error;
    }
  };

  /** The folder's existing names (as name keys); `make` creates it first. */
  const namesIn = async (dir: string, make: boolean): Promise<Set<string>> => {
    try {
      if (make) await mkdir(dir, { recursive: true });
      return new Set((await readdir(dir)).map(nameKey));
    } catch (error) {
      throw notWritable(dir, error, written.length);
    }
  };
  /** Name keys taken in each product folder, read when its first file is written (a fully flagged product gets no folder). */
  const takenIn = new Map<string, Set<string>>();

  for (const [i, item] of items.entries()) {
    const flag = (reason: FlagReason, check: WhiteCheck | null) => {
      flagged.push({ imageId: item.imageId, sku: item.sku, shotName: item.shotName, reason, whiteCheck: check });
      rows.push(manifestRow(item, preset, null, null, check, reason, mode, credits));
      deps.onProgress?.(i + 1, total, null);
    };

    const source = await readSource(item, deps.imagePath);
    if (!source.ok) {
      flag(source.reason, null);
      continue;
    }
    let check: WhiteCheck | null = null;
    let encoded: Encoded | null;
    try {
      if (PURPOSES[item.purpose].whiteBackground) check = await whiteBorderCheck(source.bytes);
      if (check && !check.passed && !options.includeFailedChecks) {
        flag('not_white', check);
        continue;
      }
      encoded = await encodeForPreset(source.bytes, preset, item.generation);
    } catch {
      // sharp could not decode the file (damaged, or not an image).
      flag('unreadable', check);
      continue;
    }
    if (encoded === null) {
      flag('too_large', check);
      continue;
    }

    const folderName = folderOf.get(item.sku) ?? sanitizeFileStem(item.sku);
    const dir = join(folder, folderName);
    const taken = takenIn.get(dir) ?? (await namesIn(dir, true));
    takenIn.set(dir, taken);
    const name = await write(dir, taken, renderTemplate(parts, fileValues(item, options.now)), ext, encoded.content);
    // Relative paths use `/` on every system, so the manifest reads the same everywhere.
    const file = `${folderName}/${name}`;
    bytes += encoded.content.byteLength;
    written.push({ imageId: item.imageId, sku: item.sku, shotName: item.shotName, file, width: encoded.width, height: encoded.height, bytes: encoded.content.byteLength, whiteCheck: check });
    rows.push(manifestRow(item, preset, file, encoded, check, 'written', mode, credits));
    deps.onProgress?.(i + 1, total, file);
  }

  for (const m of missing) rows.push(missingRow(m, mode, credits));
  let manifestFile: string | null = null;
  if (written.length > 0) {
    const text = csvDocument(MANIFEST_HEADER, rows, MANIFEST_TEXT_COLUMNS);
    manifestFile = await write(folder, await namesIn(folder, false), 'manifest', 'csv', text);
    bytes += Buffer.byteLength(text, 'utf8');
  }
  const missingPicks = missing.map(({ sku, productName, shotName, reason }) => ({ sku, productName, shotName, reason }));
  return { folder, presetId: preset.id, written, flagged, manifestFile, bytes, mode, missingPicks };
}
