import { describe, expect, it } from 'vitest';
import { sortByName } from './board-order.ts';

const named = (...names: string[]) => names.map((name, i) => ({ id: `b${i}`, name }));
const namesOf = (items: Array<{ name: string }>) => items.map((b) => b.name);

describe('sortByName', () => {
  it('puts numbers in names in their value order, not text order', () => {
    // The order main's list answers in (name_key, text order).
    const boards = named('Board 1', 'Board 10', 'Board 11', 'Board 2', 'board 3', 'Board 9');
    expect(namesOf(sortByName(boards, 'en'))).toEqual(['Board 1', 'Board 2', 'board 3', 'Board 9', 'Board 10', 'Board 11']);
  });

  it('sorts Chinese names by their reading in a Chinese UI, numbers by value', () => {
    // Code point order is 中 < 北 < 阿 and 第10 < 第2; read in pinyin, 阿 (a) < 北 (bei) < 中 (zhong).
    const boards = named('中国', '北京', '阿里', '第10组', '第2组');
    const sorted = namesOf(sortByName(boards, 'zh'));
    expect(sorted.indexOf('阿里')).toBeLessThan(sorted.indexOf('北京'));
    expect(sorted.indexOf('北京')).toBeLessThan(sorted.indexOf('中国'));
    expect(sorted.indexOf('第2组')).toBeLessThan(sorted.indexOf('第10组'));
  });

  it('keeps names equal but for case in one order (by id) and leaves its input alone', () => {
    const boards = [
      { id: 'b2', name: 'spring' },
      { id: 'b1', name: 'Spring' },
    ];
    expect(sortByName(boards, 'en').map((b) => b.id)).toEqual(['b1', 'b2']);
    expect(boards.map((b) => b.id)).toEqual(['b2', 'b1']);
  });
});
