// Thumbnail sheets (main's files/thumbnail-sheet.ts, shown by the Catalog's board): one image holding several
// images' thumbnails side by side, asked for with an image URL of kind `sheet` whose id is their ids joined by dots.

/** The most images one sheet holds: a product's master and its shots' candidates (8 shots × 4 candidates and more). */
export const SHEET_MOST = 40;

/** A sheet's id in its URL: the images' ids joined by dots (image ids never hold a dot). */
export function sheetId(imageIds: readonly string[]): string {
  return imageIds.join('.');
}

/** The image ids a sheet's id names, in order (not yet checked: main checks each is an image id). */
export function sheetImageIds(id: string): string[] {
  return id.split('.');
}
