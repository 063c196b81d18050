import { describe, expect, it } from 'vitest';
import { CONCRETE_MODEL_IDS, MAX_REFERENCE_IMAGES, MODELS, PIXEL_SIZES, PURPOSES, PURPOSE_IDS, RATIOS, RESOLUTIONS } from './catalog.ts';

// The model table of spec §4.1, restated independently so a change to the catalog fails here.
const SPEC_MODEL_TABLE = {
  'nano-banana-2': { ratios: ['1:1', '3:4', '4:5', '16:9', '9:16'], resolutions: ['1K', '2K', '4K'], def: '2K', quality: false, refs: 14, status: 'stable' },
  'gpt-image-2': { ratios: ['1:1', '3:4', '4:5', '16:9', '9:16'], resolutions: ['1K', '2K', '4K'], def: '1K', quality: true, refs: 16, status: 'stable' },
  'gpt-image-2.5': { ratios: ['1:1', '3:4', '4:5', '16:9', '9:16'], resolutions: ['1K', '2K', '4K'], def: '1K', quality: true, refs: 16, status: 'testing' },
  'seedream-5-0-pro': { ratios: ['1:1', '3:4', '16:9', '9:16'], resolutions: ['1K', '2K'], def: '1K', quality: false, refs: 10, status: 'testing' },
  'qwen-image-3.0-pro': { ratios: ['1:1', '3:4', '16:9', '9:16'], resolutions: ['1K', '2K'], def: '1K', quality: false, refs: 3, status: 'testing' },
  'flux-kontext-pro': { ratios: ['1:1', '3:4', '4:5', '16:9', '9:16'], resolutions: ['1K'], def: '1K', quality: false, refs: 1, status: 'edit_only' },
} as const;

describe('catalog', () => {
  it('lists exactly the models of spec §4.1', () => {
    expect([...CONCRETE_MODEL_IDS].sort()).toEqual(Object.keys(SPEC_MODEL_TABLE).sort());
  });

  it.each(Object.entries(SPEC_MODEL_TABLE))('matches the spec row of %s', (id, row) => {
    const spec = MODELS[id as keyof typeof MODELS];
    expect([...spec.ratios]).toEqual(row.ratios);
    expect([...spec.resolutions]).toEqual(row.resolutions);
    expect(spec.defaultResolution).toBe(row.def);
    expect(spec.supportsQuality).toBe(row.quality);
    expect(spec.referenceLimit).toBe(row.refs);
    expect(spec.status).toBe(row.status);
    expect(spec.requiresReference).toBe(id === 'flux-kontext-pro');
  });

  it('caps references at 16 across models', () => {
    expect(MAX_REFERENCE_IMAGES).toBe(16);
  });

  it('has the pixel-size table of DESIGN.md §3', () => {
    const expected: Record<string, string[]> = {
      '1:1': ['1024x1024', '2048x2048', '4096x4096'],
      '3:4': ['896x1200', '1792x2400', '3584x4800'],
      '4:5': ['928x1152', '1856x2304', '3712x4608'],
      '16:9': ['1376x768', '2752x1536', '5504x3072'],
      '9:16': ['768x1376', '1536x2752', '3072x5504'],
    };
    for (const ratio of RATIOS) {
      expect(RESOLUTIONS.map((r) => `${PIXEL_SIZES[ratio][r].width}x${PIXEL_SIZES[ratio][r].height}`)).toEqual(expected[ratio]);
    }
  });

  it('describes every purpose in zh and en, and paints white only for white-background purposes', () => {
    expect([...PURPOSE_IDS]).toEqual(['free', 'main_white', 'detail', 'buyer_show', 'pure_white']);
    for (const id of PURPOSE_IDS) {
      expect(PURPOSES[id].description.zh.length).toBeGreaterThan(4);
      expect(PURPOSES[id].description.en.length).toBeGreaterThan(10);
      expect(PURPOSES[id].whiteBackground).toBe(id === 'main_white' || id === 'pure_white');
    }
  });
});
