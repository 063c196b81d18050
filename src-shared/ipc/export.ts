// IPC: exporting a set of images to a folder (docs/main-process.md "Export"): a selection, a session or a
// board; file names from a template; PNG with the generation data embedded, or JPEG/WebP at a quality; an
// optional CSV of the set. Progress arrives as `export:progress` events.
import { z } from 'zod';
import { DEFAULT_EXPORT_TEMPLATE, MAX_TEMPLATE_LENGTH } from '../export-template.ts';
import { DEFAULT_EXPORT_QUALITY, EXPORT_FORMATS, type ExportFormat } from '../limits.ts';
import { IdSchema, method } from './contract.ts';

export { DEFAULT_EXPORT_QUALITY, EXPORT_FORMATS, type ExportFormat };

/** Whose rules make a path absolute: macOS and Linux (`posix`) or Windows (`win32`). */
export type PathPlatform = 'posix' | 'win32';

/**
 * Absolute by the rules of `platform`: POSIX `/…`; Windows `C:\…` or `C:/…`, or a UNC path `\\server\share…`
 * (`\…` alone is relative to the current drive there). Without a platform, by either: the contract cannot
 * know where main runs, so main checks the folder again by its own platform's rules before using it.
 */
export function isAbsolutePath(path: string, platform?: PathPlatform): boolean {
  const posix = path.startsWith('/');
  const windows = /^[A-Za-z]:[\\/]/.test(path) || /^\\\\[^\\]+\\[^\\]+/.test(path);
  if (platform === 'posix') return posix;
  if (platform === 'win32') return windows;
  return posix || windows;
}

export const ExportSourceSchema = z.union([
  /** Images in this order (the gallery's selection). */
  z.strictObject({ imageIds: z.array(IdSchema).max(10_000) }),
  /** All images of a session, oldest first. */
  z.strictObject({ sessionId: IdSchema }),
  /** All images of a board, in the board's order. */
  z.strictObject({ boardId: IdSchema }),
]);
export type ExportSource = z.infer<typeof ExportSourceSchema>;

export const ExportRunSchema = z.object({
  source: ExportSourceSchema,
  /** e.g. `{session}_{date}_{model}_{index}` (the default); fields in src-shared/export-template.ts (TEMPLATE_FIELDS). */
  template: z.string().max(MAX_TEMPLATE_LENGTH).default(DEFAULT_EXPORT_TEMPLATE),
  format: z.enum(EXPORT_FORMATS),
  /** 1–100 for JPEG and WebP (default 90); PNG is lossless and ignores it. */
  quality: z.number().int().min(1).max(100).optional(),
  /** Also write a CSV of the set (UTF-8 with BOM, RFC 4180); default false. */
  csv: z.boolean().default(false),
  /** The folder to write into; omitted = ask the user with the folder chooser. Created if missing. */
  folder: z.string().min(1).max(4096).refine(isAbsolutePath, 'must be an absolute path').optional(),
});
export type ExportRunInput = z.input<typeof ExportRunSchema>;

/** Why an image of the set was not written. */
export type ExportSkipReason =
  /** No such image in the library. */
  | 'not_found'
  /** Its download has not finished (or failed). */
  | 'not_downloaded'
  /** The cached file is gone from disk. */
  | 'file_missing'
  /** The cached file could not be read or converted. */
  | 'unreadable';

export interface ExportSummary {
  exportId: string;
  /** The folder written into; null when the user cancelled the folder chooser (nothing was written). */
  folder: string | null;
  /** File names inside `folder`, in export order. */
  written: Array<{ imageId: string; file: string }>;
  skipped: Array<{ imageId: string; reason: ExportSkipReason }>;
  /** The CSV's file name inside `folder`, when one was asked for and written. */
  csvFile: string | null;
  /** Bytes written, images and CSV together. */
  bytes: number;
}

/** `export:progress`: after the folder is chosen, once before the first file and after each file. */
export interface ExportProgress {
  exportId: string;
  done: number;
  total: number;
  /** The file being written (done < total) or just written (done = total); null before the first. */
  currentFile: string | null;
}

export const exportMethods = {
  exportRun: method<ExportSummary>()('export:run', ExportRunSchema),
};
