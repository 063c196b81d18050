// IPC handler of export (src-shared/ipc/export.ts): a selection, session or board written to a folder
// (docs/main-process.md "Export"); the exporter (exporter.ts) does the work.
import type { HandlerTable } from '../ports/ipc-table.ts';
import { createExporter, type ExporterDeps } from './exporter.ts';

export type ExportMethods = 'exportRun';

export function createExportHandlers(deps: ExporterDeps): HandlerTable<ExportMethods> {
  const exporter = createExporter(deps);
  return { exportRun: (input) => exporter.run(input) };
}
