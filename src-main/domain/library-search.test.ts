import { describe, expect, it } from 'vitest';
import { promptIndexRows, promptSearch, searchTerms, wordsText } from './library-search.ts';

describe('prompt search terms', () => {
  it('splits at white space and keeps "quoted phrases" whole', () => {
    expect(searchTerms('  red   sneaker "50% off"  ')).toEqual(['red', 'sneaker', '50% off']);
    expect(searchTerms('"unterminated phrase')).toEqual(['unterminated phrase']);
    expect(searchTerms('   ')).toEqual([]);
  });

  it('sends 3+ character terms to the trigram index and shorter ones to the word index, as FTS5 strings', () => {
    expect(promptSearch('marble 50%')).toEqual({ trigrams: '"marble" AND "50%"', words: null });
    expect(promptSearch('香水 ai')).toEqual({ trigrams: null, words: '"香 水"* AND "ai"*' });
    expect(promptSearch('大理石 瓶')).toEqual({ trigrams: '"大理石"', words: '"瓶"*' });
    // Nothing typed is FTS5 syntax: quotes are doubled, operators stay text.
    expect(promptSearch('say "hi" NOT OR')).toEqual({ trigrams: '"say" AND "NOT"', words: '"hi"* AND "OR"*' });
    expect(promptSearch('a"b"c')).toEqual({ trigrams: '"a""b""c"', words: null });
    // Short terms without a letter or digit are ignored; a query of only those searches for nothing.
    expect(promptSearch('# %')).toBeNull();
    expect(promptSearch('')).toBeNull();
  });

  it('puts a space around every CJK character in the word index, so one character is a word', () => {
    expect(wordsText('洗发水瓶 on marble，柔光')).toBe('洗 发 水 瓶 on marble， 柔 光');
    expect(promptIndexRows('  ')).toBeNull();
    expect(promptIndexRows('Mug 杯子')).toEqual({ trigrams: 'Mug 杯子', words: 'Mug 杯 子' });
  });
});
