// The board's rows come in a few cells a frame while the column scrolls (issue 26: p95 main-thread time per frame
// under 8 ms). A whole row (8 cells, ~150 elements, 17 images) drawn in the frame it entered took 20–30 ms of that
// frame on the benchmark's machine, every row. A row that enters during a scroll now comes with its product cell and
// its cells' frames (status attributes, no contents), and the cells' contents are drawn over the next frames, rows in
// view first, a few every other frame; the rows drawn beyond the view give them the frames to do it in. A row
// that comes in otherwise (the board opens, a filter, a re-read) is drawn whole at once, as is the row with the focus.
import { flushSync } from 'react-dom';

/**
 * Cells are drawn every other frame: their style, layout and paint come in the frame after. Drawn every frame, each
 * frame held the React of one cell and the layout and paint of the one before it; every other frame, a frame holds
 * one of the two, and the page's paint, layerisation and commit are paid once for two cells.
 */
/** React's render and commit time a step may give to cells once the column has stopped scrolling. */
const FRAME_BUDGET_MS = 2;
/** The cells a step draws at least (while the column scrolls, exactly): one a frame on average. */
const LEAST_CELLS = 2;
/** What a cell costs at first guess, before the first frame has measured it. */
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
  /** A row came in during a scroll: the next frame lays its frame out, so no cells are drawn for it. */
  private rest = false;
  /** Cells were drawn after the last frame: the next frame lays them out, so none are drawn after it. */
  private pause = false;
  /** Whether the column scrolls (as the board last planned): then a step draws the least cells, no more. */
  private scrolling = false;

  /**
   * During the board's render: the rows it draws, in the order their cells should come (those in view first). A row
   * new to the board comes in empty during a scroll and whole otherwise; `whole` rows (the focus's) are drawn whole.
   * Rows the board no longer draws are forgotten (drawn again when they come back).
   */
  plan(rows: readonly StagedRow[], scrolling: boolean, whole: (key: string) => boolean): void {
    this.scrolling = scrolling;
    const next = new Map<string, number>();
    for (const row of rows) {
      const was = this.drawn.get(row.key);
      if (was === undefined && scrolling) this.rest = true;
      next.set(row.key, whole(row.key) ? row.cells : Math.min(row.cells, was ?? (scrolling ? 0 : row.cells)));
    }
    this.drawn = next;
    this.waiting = rows.filter((row) => (next.get(row.key) ?? 0) < row.cells);
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
   * After the board's commit: the cells still waiting are drawn over the coming frames, each frame's in a task right
   * after it is painted. Their style and layout then come with the next frame's own (one layout a frame); drawn in
   * the frame's animation callbacks, after the scroll had already laid the page out, they made it lay out twice.
   */
  schedule(): void {
    if (this.frame !== 0 || this.task !== 0 || this.waiting.length === 0) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.task = window.setTimeout(this.step, 0);
    });
  }

  stop(): void {
    cancelAnimationFrame(this.frame);
    window.clearTimeout(this.task);
    this.frame = 0;
    this.task = 0;
  }

  /** A step's cells, drawn at once, every other frame: two while the column scrolls, else as many as the budget
   *  holds at what cells have cost (two at least). A frame that brought a row in draws none: the next frame lays out
   *  and paints that row's frame (its product, the cells' frames), and cells on top made it the heaviest. */
  private readonly step = () => {
    this.task = 0;
    if (this.rest || this.pause) {
      this.rest = false;
      this.pause = false;
      this.schedule();
      return;
    }
    // While the column scrolls, the least: a cheap moment's measure let four cells into a frame, ~5 ms of React once
    // the shared machine was busy again. Once it stops, as many as the budget holds, to finish the rows sooner.
    let room = this.scrolling ? LEAST_CELLS : Math.max(LEAST_CELLS, Math.floor(FRAME_BUDGET_MS / this.perCellMs));
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
    this.pause = true;
    this.schedule();
  };
}
