// The board's rows come in at a glance while the column scrolls, and their cells' contents are drawn once it rests
// (issue 26: p95 main-thread time per frame under 8 ms). A whole row (8 cells, ~150 elements, 17 images) drawn in the
// frame it entered took 20–30 ms of that frame on the benchmark's machine, every row; drawn a few cells every other
// frame, the cells still held the scroll's heaviest frames (p95 8–9 ms), and at 1,200 px/s the rows in view were
// filling all the time. A row that enters during a scroll now comes with its product cell and its cells at a glance
// (status word, the candidates' tiles of the row's sheet: BoardCell.tsx), and once the scroll rests the cells'
// contents are drawn over the next frames, rows in view first. A row that comes in otherwise (the board opens, a
// filter, a re-read) is drawn whole at once, as is the row with the focus.
import { flushSync } from 'react-dom';

/** React's render and commit time a step gives to cells (a step a frame, once the column rests). */
const FRAME_BUDGET_MS = 4;
/** What a cell costs at first guess, before the first step has measured it. */
const FIRST_GUESS_MS = 1;

/**
 * What a cell is taken to cost once another has been measured: up at once to a dearer measure, down slowly. A single
 * cheap cell (a quiet moment on a shared machine) then does not send more cells into the next step than the budget
 * holds once the machine is busy again.
 */
export function cellCost(was: number, measured: number): number {
  return Math.max(0.05, measured > was ? measured : 0.9 * was + 0.1 * measured);
}

export interface StagedRow {
  key: string;
  cells: number;
}

/**
 * How many cells of each drawn row have their contents drawn. The board plans its rows as it renders; each row reads
 * its own count (subscribe, drawnOf), so a frame's cells render their rows alone, not the board.
 */
export class CellStager {
  private drawn = new Map<string, number>();
  /** Rows not yet drawn whole, in the order to draw them. */
  private waiting: StagedRow[] = [];
  private readonly listeners = new Map<string, Set<() => void>>();
  private frame = 0;
  private task = 0;
  private perCellMs = FIRST_GUESS_MS;
  /** Whether the column scrolls (as the board last planned it, or the virtualiser last said): then no cells are drawn. */
  private moving = false;
  /** Set by stop() (the board unmounted): a step in flight asks for no more. */
  private stopped = false;

  /**
   * During the board's render: the rows it draws, in the order their cells should come (those in view first). A row
   * new to the board comes in at a glance during a scroll and whole otherwise; `whole` rows (the focus's) are drawn whole.
   * Rows the board no longer draws are forgotten (drawn again when they come back).
   */
  plan(rows: readonly StagedRow[], scrolling: boolean, whole: (key: string) => boolean): void {
    this.moving = scrolling;
    const next = new Map<string, number>();
    for (const row of rows) {
      const was = this.drawn.get(row.key);
      next.set(row.key, whole(row.key) ? row.cells : Math.min(row.cells, was ?? (scrolling ? 0 : row.cells)));
    }
    this.drawn = next;
    this.waiting = rows.filter((row) => (next.get(row.key) ?? 0) < row.cells);
  }

  /** The virtualiser says whether the column scrolls (its onChange): once it rests, the waiting cells are drawn, even
   *  if nothing else renders the board then. */
  scrolling(now: boolean): void {
    this.moving = now;
    if (!now) this.schedule();
  }

  /** How many of the row's cells (from the first) are drawn. */
  drawnOf(key: string): number {
    return this.drawn.get(key) ?? 0;
  }

  /** A row hears of its own cells being drawn (useSyncExternalStore). */
  subscribe(key: string, listener: () => void): () => void {
    let set = this.listeners.get(key);
    if (!set) this.listeners.set(key, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(key);
    };
  }

  /**
   * After the board's commit: once the column rests, the cells still waiting are drawn over the coming frames, each
   * frame's in a task right after it is painted. Their style and layout then come with the next frame's own (one
   * layout a frame); drawn in the frame's animation callbacks, after the page was laid out, they made it lay out twice.
   */
  schedule(): void {
    if (this.moving || this.stopped || this.frame !== 0 || this.task !== 0 || this.waiting.length === 0) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.task = window.setTimeout(this.step, 0);
    });
  }

  /** The board mounted (again): steps may run. */
  start(): void {
    this.stopped = false;
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    cancelAnimationFrame(this.frame);
    window.clearTimeout(this.task);
    this.frame = 0;
    this.task = 0;
  }

  /** A step's cells, drawn at once: as many as the budget holds at what cells have cost, one at least. None while the
   *  column scrolls (it began to again since the step was asked for): the board plans again when it rests. */
  private readonly step = () => {
    this.task = 0;
    if (this.moving) return;
    let room = Math.max(1, Math.floor(FRAME_BUDGET_MS / this.perCellMs));
    let count = 0;
    const rows: string[] = [];
    for (const row of this.waiting) {
      const drawn = this.drawn.get(row.key) ?? 0;
      const more = Math.min(room, row.cells - drawn);
      if (more === 0) continue;
      this.drawn.set(row.key, drawn + more);
      rows.push(row.key);
      room -= more;
      count += more;
      if (room === 0) break;
    }
    this.waiting = this.waiting.filter((row) => (this.drawn.get(row.key) ?? 0) < row.cells);
    if (count === 0) return;
    const started = performance.now();
    // Committed now, between two frames: the next one lays them out with the rest of its work.
    flushSync(() => {
      for (const key of rows) for (const listener of this.listeners.get(key) ?? []) listener();
    });
    this.perCellMs = cellCost(this.perCellMs, (performance.now() - started) / count);
    this.schedule();
  };
}
