// The board's cell staging (board-staging.ts) frame by frame, with the frames in the test's hands: rows that come in
// during a scroll start empty and fill over the frames, those in view first; rows that come in otherwise, and the
// focus's row, are whole at once; rows that leave are forgotten.
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

describe('board cell staging', () => {
  it('draws rows whole at once when they do not come in during a scroll (the board opens, a filter)', () => {
    const { stager } = board(rows('a', 'b'), false);
    expect([stager.drawnOf('a'), stager.drawnOf('b')]).toEqual([8, 8]);
    expect(frames).toHaveLength(0);
  });

  it('fills rows that come in during a scroll over the next frames, in the order given, until all are whole', () => {
    const { stager, renders, heard } = board(rows('inView', 'below'), true);
    expect([stager.drawnOf('inView'), stager.drawnOf('below')]).toEqual([0, 0]);
    let seen = 0;
    for (let frame = 0; frame < 40 && frames.length > 0; frame++) {
      nextFrame(stager);
      const [a, b] = [stager.drawnOf('inView'), stager.drawnOf('below')];
      // The row in view fills first: the one below gets nothing until it is whole.
      if (b > 0) expect(a).toBe(8);
      // The first frame rests (it lays the rows' frames out); then every other frame draws two cells or more (until
      // all are drawn), and the frame after it draws none (it lays those out).
      if (frame % 2 === 1) expect(a + b).toBe(Math.min(16, seen + 2));
      else expect(a + b).toBe(seen);
      seen = a + b;
    }
    expect([stager.drawnOf('inView'), stager.drawnOf('below')]).toEqual([8, 8]);
    expect(frames).toHaveLength(0);
    expect(renders()).toBeGreaterThan(1);
    // Each row heard only of its own cells: the row in view until it was whole, then the one below.
    expect(heard.get('inView')).toBeGreaterThan(0);
    expect(heard.get('below')).toBeGreaterThan(0);
  });

  it('draws no cells in the frame after a row came in during a scroll (that frame lays the row out), nor after cells were drawn, then goes on', () => {
    const { stager, renders } = board(rows('a'), true);
    nextFrame(stager);
    expect([stager.drawnOf('a'), renders()]).toEqual([0, 0]);
    nextFrame(stager);
    expect(stager.drawnOf('a')).toBeGreaterThan(0);
    // The frame after drawing lays those cells out: it draws none.
    const drawn = stager.drawnOf('a');
    nextFrame(stager);
    expect(stager.drawnOf('a')).toBe(drawn);
    // Another row coming in while it fills: one frame's rest again, where cells would have come.
    const now = stager.drawnOf('a');
    stager.plan(rows('a', 'b'), true, () => false);
    stager.schedule();
    nextFrame(stager);
    expect(stager.drawnOf('a')).toBe(now);
    nextFrame(stager);
    expect(stager.drawnOf('a')).toBeGreaterThan(now);
  });

  it('draws two cells a step while the column scrolls, however cheap they are, and more once it stops', () => {
    const keys = 'abcdefghij'.split('');
    const { stager } = board(rows(...keys), true);
    const total = () => keys.reduce((n, key) => n + stager.drawnOf(key), 0);
    nextFrame(stager); // the rows came in: rest
    // Cells cost nothing here: the budget alone would let many into a step.
    for (let frame = 0; frame < 40; frame++) {
      const before = total();
      nextFrame(stager);
      expect(total() - before).toBe(frame % 2 === 0 ? 2 : 0);
    }
    // The scroll stops with the same rows drawn: the cells left come as many a step as the budget holds.
    stager.plan(rows(...keys), false, () => false);
    stager.schedule();
    // (The loop ended on the frame after a step: the next one draws.)
    const before = total();
    nextFrame(stager);
    expect(total() - before).toBeGreaterThan(2);
  });

  it('takes a dearer cell at once and a cheaper one slowly, so one cheap cell does not put more in the next step', () => {
    expect(cellCost(0.6, 1.4)).toBe(1.4);
    // Within a step's 2 ms budget more than two cells fit at 2/3 ms a cell or less: one cheap cell is not enough.
    const afterOneCheap = cellCost(1.2, 0.3);
    expect(afterOneCheap).toBeGreaterThan(2 / 3);
    // A machine that stays fast gets there: several cheap cells in a row.
    let cost = 1.2;
    for (let i = 0; i < 20; i++) cost = cellCost(cost, 0.3);
    expect(cost).toBeLessThan(2 / 3);
    expect(cellCost(0.05, 0)).toBe(0.05);
  });

  it('tells a row nothing once it has stopped listening', () => {
    const stager = new CellStager();
    let heard = 0;
    const stop = stager.subscribe('a', () => heard++);
    stager.plan(rows('a'), true, () => false);
    stager.schedule();
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
    nextFrame(stager);
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
    stager.stop();
    expect(frames).toHaveLength(0);
    // Stopped between its frame and the task after it, too.
    const other = board(rows('b'), true).stager;
    frames.splice(0)[0]?.();
    other.stop();
    expect(tasks).toHaveLength(0);
    expect([stager.drawnOf('a'), other.drawnOf('b')]).toEqual([0, 0]);
  });
});
