// Thumbnail sheets: several images' thumbnails side by side in one image, square tiles in the order asked for. The
// Catalog's board shows each row's images (its product's master reference and every candidate) from one sheet: a
// row of 17 images asked for 17 files, and each image the page loads costs its main thread about a millisecond
// (the request, its answer, laying the cell out again once it arrives), which the board's scroll could not afford
// (issue 26: p95 main-thread time per frame under 8 ms). One request a row, and tiles sized for the board's 96 px
// cells at twice the pixels (not the 512 px thumbnails, decoded 17 at a time).
import sharp from 'sharp';
import { sheetId } from '../../src-shared/image-sheet.ts';

/** A tile's side in pixels: the board's 96 px cells on a 2× display. */
export const SHEET_TILE = 192;
/** Sheets kept composed, newest used last: a scroll back over the board asks for them again. */
const KEPT = 96;
/** A tile for an image without a thumbnail on disk (never kept: asked again, it may be there). */
const BLANK = { r: 128, g: 128, b: 128 };

export interface ThumbnailSheet {
  bytes: Buffer;
  /** False when an image had no thumbnail on disk and its tile is blank: such a sheet is not to be kept. */
  complete: boolean;
}

export class ThumbnailSheets {
  private readonly kept = new Map<string, Buffer>();
  private readonly thumbFile: (imageId: string) => Promise<string | null>;

  /** `thumbFile` answers the thumbnail file of a downloaded image, or null. */
  constructor(thumbFile: (imageId: string) => Promise<string | null>) {
    this.thumbFile = thumbFile;
  }

  async sheet(ids: readonly string[]): Promise<ThumbnailSheet> {
    const key = sheetId(ids);
    const kept = this.kept.get(key);
    if (kept) {
      this.kept.delete(key);
      this.kept.set(key, kept);
      return { bytes: kept, complete: true };
    }
    const tiles = await Promise.all(ids.map((id) => this.tile(id)));
    const bytes = await sharp({ create: { width: SHEET_TILE * ids.length, height: SHEET_TILE, channels: 3, background: BLANK } })
      .composite(tiles.flatMap((tile, i) => (tile ? [{ input: tile, left: i * SHEET_TILE, top: 0 }] : [])))
      .webp({ quality: 80 })
      .toBuffer();
    const complete = tiles.every((tile) => tile !== null);
    if (complete) {
      this.kept.set(key, bytes);
      if (this.kept.size > KEPT) this.kept.delete(this.kept.keys().next().value as string);
    }
    return { bytes, complete };
  }

  /** One image's tile: its thumbnail cut to a centred square, or null when it has none on disk (or it is unreadable). */
  private async tile(id: string): Promise<Buffer | null> {
    const file = await this.thumbFile(id);
    if (!file) return null;
    try {
      return await sharp(file).resize(SHEET_TILE, SHEET_TILE, { fit: 'cover' }).toBuffer();
    } catch {
      return null;
    }
  }
}
