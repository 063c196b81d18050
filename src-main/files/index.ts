// Front door of files: the image cache on disk (full PNGs and thumbnails) and the downloader that fills it.
export { Downloader, MAX_DOWNLOAD_BYTES, THUMBNAIL_LONG_SIDE, makeThumbnail, type DownloaderDeps } from './downloader.ts';
export { cacheDirs, cachePath, existingCachePath, isSafeImageId, type CacheDirs } from './image-cache.ts';
export { ThumbnailSheets, type ThumbnailSheet } from './thumbnail-sheet.ts';
export { createFileHandlers, type FileHandlerDeps, type FileMethods } from './handlers.ts';
