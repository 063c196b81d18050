// The board's cell staging (board-staging.ts) frame by frame, with the frames in the test's hands: rows that come in
// during a scroll stay at a glance while the column scrolls and fill over the frames once it rests, those in view
// first; rows that come in otherwise, and the focus's row, are whole at once; rows that leave are forgotten.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cellCost, CellStager, type StagedRow } from './board-staging.ts';

let frames: Array<() => void> = [];
let tasks: Array<() => void> = [];

beforeEach(() => {
  frames = [];
  tasks = [];
  vi.stubGlobal('requestAnimationFrame', (cb: () => void) => frames.push(cb));
  vi.stubGlobal('cancelAnimationFrame', () => {
    frames = [];
  });
  // The stager draws in a task after each frame (window.setTimeout).
  vi.stubGlobal('window', {
    setTimeout: (cb: () => void) => tasks.push(cb),
    clearTimeout: () => {
      tasks = [];
    },
  });
});
afterEach(() => vi.unstubAllGlobals());

/** A board's rows, each hearing of its own cells (as CatalogBoard's rows do); the board planned once. */
function board(rows: StagedRow[], scrolling: boolean, focusKey?: string) {
  const stager = new CellStager();
  const heard = new Map<string, number>();
  for (const row of rows) stager.subscribe(row.key, () => heard.set(row.key, (heard.get(row.key) ?? 0) + 1));
  stager.plan(rows, scrolling, (key) => key === focusKey);
  stager.schedule();
  return { stager, renders: () => [...heard.values()].reduce((a, b) => a + b, 0), heard };
}

/** Runs the waiting frame and the task after it (at most one of each is ever waiting; it asks for the next itself). */
function nextFrame(_stager: CellStager) {
  const run = frames.splice(0);
  expect(run.length).toBeLessThanOrEqual(1);
  run[0]?.();
  const after = tasks.splice(0);
  expect(after.length).toBeLessThanOrEqual(1);
  after[0]?.();
}

const rows = (...keys: string[]): StagedRow[] => keys.map((key) => ({ key, cells: 8 }));

/** The column rests: the board plans the same rows again, not scrolling (as the virtualiser's isScrolling turning
 *  false renders it), and asks for the steps. */
function rest(stager: CellStager, drawnRows: StagedRow[]) {
  stager.plan(drawnRows, false, () => false);
  stager.schedule();
}

describe('board cell staging', () => {
  it('draws rows whole at once when they do not come in during a scroll (the board opens, a filter)', () => {
    const { stager } = board(rows('a', 'b'), false);
    expect([stager.drawnOf('a'), stager.drawnOf('b')]).toEqual([8, 8]);
    expect(frames).toHaveLength(0);
  });

  it('draws no cells while the column scrolls: rows that came in stay at a glance, and no frame is asked for', () => {
    const { stager, renders } = board(rows('a', 'b'), true);
    expect(frames).toHaveLength(0);
    // The board renders again as rows come and go (and asks for the steps after each render): still nothing.
    for (let frame = 0; frame < 20; frame++) {
      stager.plan(rows('a', 'b', 'c').slice(0, 2 + (frame % 2)), true, () => false);
      stager.schedule();
      nextFrame(stager);
    }
    expect([stager.drawnOf('a'), stager.drawnOf('b'), stager.drawnOf('c'), renders()]).toEqual([0, 0, 0, 0]);
  });

  it('fills the rows once the column rests, a step a frame within the budget, in the order given, until all are whole', () => {
    const drawnRows = rows('inView', 'below');
    const { stager, heard } = board(drawnRows, true);
    rest(stager, drawnRows);
    expect([stager.drawnOf('inView'), stager.drawnOf('below')]).toEqual([0, 0]);
    let seen = 0;
    let steps = 0;
    for (let frame = 0; frame < 40 && frames.length > 0; frame++) {
      nextFrame(stager);
      const [a, b] = [stager.drawnOf('inView'), stager.drawnOf('below')];
      // The row in view fills first: the one below gets nothing until it is whole.
      if (b > 0) expect(a).toBe(8);
      // Every frame draws cells until all are; at the first guess of 1 ms a cell, the 4 ms budget holds four.
      expect(a + b - seen).toBe(Math.min(4, 16 - seen));
      seen = a + b;
      steps++;
    }
    expect([stager.drawnOf('inView'), stager.drawnOf('below'), steps]).toEqual([8, 8, 4]);
    expect(frames).toHaveLength(0);
    // Each row heard only of its own cells: the row in view until it was whole, then the one below.
    expect([heard.get('inView'), heard.get('below')]).toEqual([2, 2]);
  });

  it('stops drawing when the column scrolls again, even in a step asked for before, and goes on once it rests', () => {
    const drawnRows = rows('a', 'b');
    const { stager } = board(drawnRows, true);
    rest(stager, drawnRows);
    nextFrame(stager);
    const drawn = stager.drawnOf('a');
    expect(drawn).toBeGreaterThan(0);
    // The next step is asked for; the column scrolls before it runs.
    expect(frames).toHaveLength(1);
    stager.plan(drawnRows, true, () => false);
    stager.schedule();
    nextFrame(stager);
    nextFrame(stager);
    expect([stager.drawnOf('a'), stager.drawnOf('b'), frames.length]).toEqual([drawn, 0, 0]);
    rest(stager, drawnRows);
    nextFrame(stager);
    expect(stager.drawnOf('a') + stager.drawnOf('b')).toBeGreaterThan(drawn);
  });

  it('draws once the virtualiser says the column rests, without another plan from the board', () => {
    const { stager } = board(rows('a'), true);
    expect(frames).toHaveLength(0);
    stager.scrolling(false);
    nextFrame(stager);
    expect(stager.drawnOf('a')).toBeGreaterThan(0);
    // And it stops drawing as soon as it hears the column scroll again.
    const drawn = stager.drawnOf('a');
    stager.scrolling(true);
    nextFrame(stager);
    expect(stager.drawnOf('a')).toBe(drawn);
  });

  it('asks for no step once stopped, even from a step in flight, and goes on when started again (a remount)', () => {
    const { stager } = board(rows('a'), true);
    let stopInStep = true;
    stager.subscribe('a', () => {
      if (stopInStep) stager.stop();
    });
    rest(stager, rows('a'));
    nextFrame(stager);
    const drawn = stager.drawnOf('a');
    expect(drawn).toBeGreaterThan(0);
    expect([frames.length, tasks.length]).toEqual([0, 0]);
    stopInStep = false;
    stager.start();
    nextFrame(stager);
    expect(stager.drawnOf('a')).toBeGreaterThan(drawn);
  });

  it('takes a dearer cell at once and a cheaper one slowly, so one cheap cell does not put more in the next step', () => {
    expect(cellCost(0.6, 1.4)).toBe(1.4);
    // Within a step's 4 ms budget, 3 cells fit at 1.2 ms a cell, and still 3 after one cell of 0.3 ms.
    const afterOneCheap = cellCost(1.2, 0.3);
    expect(Math.floor(4 / afterOneCheap)).toBe(3);
    // A machine that stays fast gets there: several cheap cells in a row.
    let cost = 1.2;
    for (let i = 0; i < 20; i++) cost = cellCost(cost, 0.3);
    expect(Math.floor(4 / cost)).toBeGreaterThan(3);
    expect(cellCost(0.05, 0)).toBe(0.05);
  });

  it('tells a row nothing once it has stopped listening', () => {
    const stager = new CellStager();
    let heard = 0;
    const stop = stager.subscribe('a', () => heard++);
    stager.plan(rows('a'), true, () => false);
    rest(stager, rows('a'));
    stop();
    nextFrame(stager);
    nextFrame(stager);
    expect(stager.drawnOf('a')).toBeGreaterThan(0);
    expect(heard).toBe(0);
  });

  it('draws the row with the focus whole however it came in', () => {
    const { stager } = board(rows('a', 'focused'), true, 'focused');
    expect([stager.drawnOf('a'), stager.drawnOf('focused')]).toEqual([0, 8]);
  });

  it('keeps what was drawn across renders, and forgets rows that leave (drawn again when they come back)', () => {
    const { stager } = board(rows('a'), true);
    rest(stager, rows('a'));
    nextFrame(stager);
    const drawn = stager.drawnOf('a');
    expect(drawn).toBeGreaterThan(0);
    stager.plan(rows('a', 'b'), true, () => false);
    expect(stager.drawnOf('a')).toBe(drawn);
    stager.plan(rows('b'), true, () => false);
    expect(stager.drawnOf('a')).toBe(0);
    stager.plan(rows('a', 'b'), true, () => false);
    expect(stager.drawnOf('a')).toBe(0);
  });

  it('draws nothing more once stopped (the board unmounted)', () => {
    const { stager } = board(rows('a'), true);
    rest(stager, rows('a'));
    stager.stop();
    expect(frames).toHaveLength(0);
    // Stopped between its frame and the task after it, too.
    const other = board(rows('b'), true).stager;
    rest(other, rows('b'));
    frames.splice(0)[0]?.();
    other.stop();
    expect(tasks).toHaveLength(0);
    expect([stager.drawnOf('a'), other.drawnOf('b')]).toEqual([0, 0]);
  });
});
