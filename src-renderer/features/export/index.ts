// The export feature's front door: the dialog (mounted once by App.tsx) and the store other features open it with.
export { ExportDialog } from './ExportDialog.tsx';
export { useExportStore } from './store.ts';
