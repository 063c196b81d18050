// Thumbnail sheets (main's files/thumbnail-sheet.ts, shown by the Catalog's board): one image holding several
// images' thumbnails side by side, asked for with an image URL of kind `sheet` whose id is their ids joined by dots.

/** The most images one sheet holds: a product's master and its shots' candidates (8 shots × 4 candidates and more). */
export const SHEET_MOST = 40;
