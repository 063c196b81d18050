import { describe, expect, it } from 'vitest';
import { pickTitle, titleCandidates, titleFromPrompt, TITLE_LENGTH } from './session-title.ts';

const graphemes = (s: string) => [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(s)].length;

describe('automatic session titles', () => {
  it('keeps a short prompt whole, with its white space collapsed', () => {
    expect(titleFromPrompt('  Shampoo bottle on   marble\n')).toBe('Shampoo bottle on marble');
    expect(titleFromPrompt('   ')).toBeNull();
    expect(titleFromPrompt('')).toBeNull();
  });

  it('cuts a long prompt at a word boundary, at most 48 characters with the ellipsis', () => {
    const title = titleFromPrompt('Shampoo bottle on white marble, soft morning light, minimalist product photo with water droplets') as string;
    expect(title).toBe('Shampoo bottle on white marble, soft morning…');
    expect(graphemes(title)).toBeLessThanOrEqual(TITLE_LENGTH);
    // Punctuation before the cut is dropped ("marble,…" would read badly).
    expect(titleFromPrompt('Shampoo bottle on white marble with a long, long shadow and a reflection')).toBe('Shampoo bottle on white marble with a long…');
  });

  it('cuts Chinese between words, and a single very long word inside it', () => {
    const zh = titleFromPrompt('洗发水瓶放在白色大理石台面上，清晨柔和的自然光，极简主义风格的电商产品主图，带有水珠和绿色植物的阴影，高级感') as string;
    expect(graphemes(zh)).toBeLessThanOrEqual(TITLE_LENGTH);
    expect(zh.endsWith('…')).toBe(true);
    expect(zh.startsWith('洗发水瓶放在白色大理石台面上')).toBe(true);
    const url = titleFromPrompt(`https://example.com/${'a'.repeat(200)}`) as string;
    expect(graphemes(url)).toBe(TITLE_LENGTH);
    // Emoji and combined characters are never split.
    const emoji = titleFromPrompt('👩🏽‍🎨'.repeat(60)) as string;
    expect(emoji).toBe(`${'👩🏽‍🎨'.repeat(TITLE_LENGTH - 1)}…`);
  });

  it('tells equal titles apart by the session start (local time), then its date, seconds, and a number', () => {
    const at = new Date(2026, 2, 14, 14, 5, 9).getTime();
    expect(titleCandidates('Mug', at)).toEqual(['Mug', 'Mug · 14:05', 'Mug · 2026-03-14 14:05', 'Mug · 2026-03-14 14:05:09']);
    const taken = new Set(['Mug', 'Mug · 14:05']);
    expect(pickTitle('Mug', at, (t) => taken.has(t))).toBe('Mug · 2026-03-14 14:05');
    expect(pickTitle('Mug', at, () => false)).toBe('Mug');
    const all = new Set([...titleCandidates('Mug', at), 'Mug · 2026-03-14 14:05:09 (2)']);
    expect(pickTitle('Mug', at, (t) => all.has(t))).toBe('Mug · 2026-03-14 14:05:09 (3)');
  });
});
