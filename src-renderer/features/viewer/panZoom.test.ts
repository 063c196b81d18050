import { describe, expect, it } from 'vitest';
import { clampView, fitView, limitsFor, panBy, wheelFactor, zoomAt, MARGIN } from './panZoom.ts';

const stage = { w: 1000, h: 800 };
const fourK = { w: 3584, h: 4800 };

describe('pan and zoom', () => {
  it('fit shows the whole image centred and never enlarges a small one', () => {
    const v = fitView(stage, fourK);
    expect(fourK.h * v.s).toBeCloseTo(stage.h - 2 * MARGIN);
    expect(v.x).toBeCloseTo((stage.w - fourK.w * v.s) / 2);
    expect(v.y).toBeCloseTo(MARGIN);
    expect(fitView(stage, { w: 200, h: 100 }).s).toBe(1);
  });

  it('at 100 % the top-left and the bottom-right can both be reached, and no further', () => {
    const limits = limitsFor(stage, fourK);
    const start = clampView({ s: 1, x: 0, y: 0 }, stage, fourK, limits);
    const topLeft = panBy(start, 1e6, 1e6, stage, fourK, limits);
    expect(topLeft).toEqual({ s: 1, x: MARGIN, y: MARGIN });
    const bottomRight = panBy(start, -1e6, -1e6, stage, fourK, limits);
    expect(bottomRight.x + fourK.w).toBe(stage.w - MARGIN);
    expect(bottomRight.y + fourK.h).toBe(stage.h - MARGIN);
  });

  it('a side smaller than the stage is centred, not offset negatively', () => {
    const wide = { w: 5504, h: 3072 };
    const limits = limitsFor({ w: 1000, h: 4000 }, wide);
    const v = clampView({ s: 0.5, x: -999, y: -999 }, { w: 1000, h: 4000 }, wide, limits);
    expect(v.y).toBeCloseTo((4000 - 3072 * 0.5) / 2);
    expect(v.x).toBeGreaterThanOrEqual(1000 - MARGIN - wide.w * 0.5);
  });

  it('zoom keeps the point under the cursor fixed', () => {
    const limits = limitsFor(stage, fourK);
    const v = clampView({ s: 1, x: -1000, y: -1500 }, stage, fourK, limits);
    const anchor = { x: 420, y: 310 };
    const u = { x: (anchor.x - v.x) / v.s, y: (anchor.y - v.y) / v.s };
    const z = zoomAt(v, 2, anchor, stage, fourK, limits);
    expect(z.s).toBe(2);
    expect(z.x + u.x * z.s).toBeCloseTo(anchor.x);
    expect(z.y + u.y * z.s).toBeCloseTo(anchor.y);
  });

  it('scale stays within fit and 1600 %', () => {
    const limits = limitsFor(stage, fourK);
    expect(zoomAt(fitView(stage, fourK), 0.001, { x: 0, y: 0 }, stage, fourK, limits).s).toBeCloseTo(limits.min);
    expect(zoomAt(fitView(stage, fourK), 100, { x: 0, y: 0 }, stage, fourK, limits).s).toBe(16);
  });

  it('a wheel notch zooms in about 15 % and out the same', () => {
    expect(wheelFactor(-100, 0, false)).toBeCloseTo(1.16, 2);
    expect(wheelFactor(100, 0, false) * wheelFactor(-100, 0, false)).toBeCloseTo(1);
    expect(wheelFactor(-3, 1, false)).toBeCloseTo(wheelFactor(-48, 0, false));
  });
});
