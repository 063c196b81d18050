// The one undo stack of the renderer, behind Ctrl/⌘+Z and the undo-mark button (MarkUndoBar): culling marks
// (marks.ts), a board cell's pick, many cells' picks at once and a product's master reference
// (features/batch/board-queries.ts), newest first, and the short note naming what was just done or undone. Each
// change and each undo reaches main one after another, in the order made: a change reads what it replaces only
// after the one before it is written, and Ctrl+Z waits for a change still on its way, so an undo is always exact.
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { create } from 'zustand';
import type { Marks } from './marks.ts';

/** What the designer did, as the note names it. */
export type DoneKind = 'marked' | 'picked' | 'unpicked' | 'master' | 'unmaster' | 'picked_only';

/** The short note after a change or an undo: what happened to which image. */
export interface UndoNote {
  kind: DoneKind | 'undone' | 'nothing';
  /** A mark's marks; empty for anything else. */
  marks: Marks;
  /** The image as the designer knows it ("SKU-001 · main 2/2", or its prompt). */
  name: string;
  /** On an `undone` note: what was undone. */
  undid?: DoneKind;
  /** A change of many cells at once (`picked_only`): how many. */
  count?: number;
  /** Changes on every note, so the same text twice is announced twice. */
  seq: number;
}

/** One part of putting a change back. */
export interface UndoStep {
  /** Marks go back before picks and masters: main refuses to pick a rejected image. */
  what: 'marks' | 'pick' | 'master';
  /** Puts it back in main and the caches; throws when main refuses (the entry then stays undoable). */
  putBack: (client: QueryClient) => Promise<void>;
}

/** One change the designer made, as Ctrl+Z takes it back. */
export interface UndoEntry {
  done: DoneKind;
  marks: Marks;
  name: string;
  /** The images the change was about (a mark's images, the picked or unpicked image). */
  imageIds: string[];
  steps: UndoStep[];
  /** A change of many cells at once (`picked_only`): how many, for the note. */
  count?: number;
  /** When it was remembered (ms), so a change made with it by one key can join it (joinNewest). */
  at: number;
}

/** How many changes Ctrl+Z can take back. */
export const UNDO_DEPTH = 20;

/** How soon after a change another may join it as one step: both come from one key press. */
const JOIN_MS = 2_000;

interface UndoHistory {
  stack: UndoEntry[];
  note: UndoNote | null;
}

/** The undo stack, one for the whole renderer (grid, viewer, compare, board, studio), and the last note. */
export const useUndoHistory = create<UndoHistory>(() => ({ stack: [], note: null }));

/** Shows a note without changing the stack. */
export function say(note: Omit<UndoNote, 'seq'>): void {
  useUndoHistory.setState((s) => ({ note: { ...note, seq: (s.note?.seq ?? 0) + 1 } }));
}

/** Puts a change on the stack (the oldest past UNDO_DEPTH goes) and names it in the note. */
export function remember(entry: Omit<UndoEntry, 'at'>): void {
  useUndoHistory.setState((s) => ({ stack: [...s.stack, { ...entry, at: Date.now() }].slice(-UNDO_DEPTH) }));
  say({ kind: entry.done, marks: entry.marks, name: entry.name, ...countOf(entry) });
}

/** A bulk change's count for its notes (nothing for a change of one image). */
const countOf = (entry: Pick<UndoEntry, 'count'>): { count?: number } => (entry.count === undefined ? {} : { count: entry.count });

/**
 * Adds steps to the newest change when `joins` says they are part of it (a reject that also cleared the pick) and
 * it was made just now, or whatever its age when the caller knows they belong together (`known`: the same key press
 * asked for both, however long main took); answers whether they joined. Joined steps say nothing: the newest
 * change's note stands.
 */
export function joinNewest(steps: UndoStep[], joins: (newest: UndoEntry) => boolean, known = false): boolean {
  const newest = useUndoHistory.getState().stack.at(-1);
  if (!newest || (!known && Date.now() - newest.at > JOIN_MS) || !joins(newest)) return false;
  const joined = { ...newest, steps: [...newest.steps, ...steps] };
  useUndoHistory.setState((s) => ({ stack: [...s.stack.slice(0, -1), joined] }));
  return true;
}

let inOrder: Promise<unknown> = Promise.resolve();

/** Runs a change (or an undo) after every change asked for before it has reached main. */
export function oneAfterAnother<T>(step: () => Promise<T>): Promise<T> {
  const next = inOrder.then(step, step);
  inOrder = next.catch(() => undefined);
  return next;
}

const RANK: Record<UndoStep['what'], number> = { marks: 0, pick: 1, master: 1 };

/** Puts back the newest change: all its steps, marks first. */
export function undoLast(client: QueryClient): Promise<void> {
  return oneAfterAnother(() => putBackNewest(client));
}

async function putBackNewest(client: QueryClient): Promise<void> {
  const entry = useUndoHistory.getState().stack.at(-1);
  if (!entry) {
    say({ kind: 'nothing', marks: {}, name: '' });
    return;
  }
  useUndoHistory.setState((s) => ({ stack: s.stack.slice(0, -1) }));
  try {
    for (const step of [...entry.steps].sort((a, b) => RANK[a.what] - RANK[b.what])) await step.putBack(client);
  } catch (error) {
    // Refused: the change stays undoable (Ctrl+Z again tries again; a step already back is put back the same).
    useUndoHistory.setState((s) => ({ stack: [...s.stack, entry].slice(-UNDO_DEPTH) }));
    throw error;
  }
  say({ kind: 'undone', undid: entry.done, marks: entry.marks, name: entry.name, ...countOf(entry) });
}

/** Ctrl+Z's action: undo the newest change, wherever it was made (each step has already refreshed its caches). */
export function useUndo(): () => void {
  const client = useQueryClient();
  return useCallback(() => void undoLast(client).catch(() => undefined), [client]);
}
