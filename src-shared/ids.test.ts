import { describe, expect, it } from 'vitest';
import { ID_SHAPES, isFilename, isId, newDeliveryId, newFilename, newId, randomAlphanumeric, UUID_V4_PATTERN, type IdKind } from './ids.ts';

describe('ids', () => {
  it.each<[IdKind, RegExp]>([
    ['turn', /^t_[A-Za-z0-9]{10}$/],
    ['session', /^s_[A-Za-z0-9]{10}$/],
    ['image', /^img_[A-Za-z0-9]{8}$/],
    ['pack', /^pk_[A-Za-z0-9]{8}$/],
    ['request', /^req_[A-Za-z0-9]{20}$/],
    ['apiKey', /^sk_[A-Za-z0-9]{32}$/],
    ['webhookSecret', /^whsec_[A-Za-z0-9]{32}$/],
  ])('%s ids have the shape of DESIGN.md §3', (kind, shape) => {
    for (let i = 0; i < 50; i++) {
      const id = newId(kind);
      expect(id).toMatch(shape);
      expect(isId(kind, id)).toBe(true);
    }
    expect(isId(kind, `${ID_SHAPES[kind].prefix}!`)).toBe(false);
  });

  it('makes file names of 8 characters + .png', () => {
    expect(newFilename()).toMatch(/^[A-Za-z0-9]{8}\.png$/);
    expect(isFilename('../etc/passwd')).toBe(false);
    expect(isFilename('abcdEFG1.png')).toBe(true);
  });

  it('delivery ids are UUID v4', () => {
    expect(newDeliveryId()).toMatch(UUID_V4_PATTERN);
  });

  it('draws all 62 characters without obvious bias', () => {
    const counts = new Map<string, number>();
    const sample = randomAlphanumeric(62_000);
    for (const ch of sample) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).toBe(62);
    for (const c of counts.values()) expect(c).toBeGreaterThan(700);
  });
});
