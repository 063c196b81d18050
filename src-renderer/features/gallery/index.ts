// The gallery's front door: the side panel, the grid and its chrome (filters, totals, tile size, selection bar)
// that the library view and the product form reuse, the gallery's pages (with main.tsx's start-up prefetch), and
// an image's export.
export { GalleryPanel, SelectionBar } from './GalleryPanel.tsx';
export { FilterBar } from './Filters.tsx';
export { CullLegend, GalleryBody, GalleryTotals, ThumbSizeSlider } from './GridChrome.tsx';
export { galleryQuery, useExportImage, warmThumbnails } from './queries.ts';
