// Front door of export: images with their generation data written to a folder, the file-writing helpers the
// marketplace export shares (never overwrite, a clear error for a folder the app may not write), and CSV.
export { EXTENSIONS, createExclusive, createExporter, errorCode, generationDataOf, notWritable, prepareFolder, templatePartsOrThrow, type Exporter, type ExporterDeps } from './exporter.ts';
export { csvDocument, type CsvCell } from './csv.ts';
export { createExportHandlers, type ExportMethods } from './handlers.ts';
