// The export dialog: what it exports (a selection, a session or a board) and the choices the designer made last time
// (kept while the app runs, so the next export starts from them).
import { create } from 'zustand';
import { DEFAULT_EXPORT_TEMPLATE } from '../../../src-shared/export-template.ts';
import type { ExportSource } from '../../../src-shared/ipc/export.ts';
import { DEFAULT_EXPORT_QUALITY, type ExportFormat } from '../../../src-shared/limits.ts';

export type ExportTarget =
  | { kind: 'selection'; imageIds: string[] }
  | { kind: 'session'; sessionId: string; title: string }
  | { kind: 'board'; boardId: string; name: string };

export interface ExportChoices {
  template: string;
  format: ExportFormat;
  quality: number;
  csv: boolean;
}

interface ExportState {
  target: ExportTarget | null;
  /** Changes with every opening, so the dialog starts fresh (no old result or progress). */
  openedAt: number;
  choices: ExportChoices;
  open: (target: ExportTarget) => void;
  close: () => void;
  setChoices: (patch: Partial<ExportChoices>) => void;
}

export const useExportStore = create<ExportState>((set) => ({
  target: null,
  openedAt: 0,
  choices: { template: DEFAULT_EXPORT_TEMPLATE, format: 'png', quality: DEFAULT_EXPORT_QUALITY, csv: true },
  open: (target) => set({ target, openedAt: Date.now() }),
  close: () => set({ target: null }),
  setChoices: (patch) => set((s) => ({ choices: { ...s.choices, ...patch } })),
}));

export function exportSource(target: ExportTarget): ExportSource {
  if (target.kind === 'selection') return { imageIds: target.imageIds };
  return target.kind === 'session' ? { sessionId: target.sessionId } : { boardId: target.boardId };
}
