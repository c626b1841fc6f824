import { describe, expect, it } from 'vitest';
import { editVariants, twoWordSplits } from './word-variants';

describe('editVariants', () => {
  it('reaches a transposed, dropped, changed or added letter, swaps first', () => {
    const v = editVariants('wrod');
    expect(v[0]).toEqual({ word: 'rwod', kind: 'swap' });
    expect(v.find((x) => x.word === 'word')).toEqual({ word: 'word', kind: 'swap' });
    expect(editVariants('cuont').find((x) => x.word === 'count')?.kind).toBe('swap');
    expect(editVariants('cont').find((x) => x.word === 'count')?.kind).toBe('add');
    expect(editVariants('coumt').find((x) => x.word === 'count')?.kind).toBe('change');
    expect(editVariants('counnt').find((x) => x.word === 'count')?.kind).toBe('drop');
  });
  it('lists each spelling once, never the word itself or one under 3 letters', () => {
    const v = editVariants('abba').map((x) => x.word);
    expect(new Set(v).size).toBe(v.length);
    expect(v).not.toContain('abba');
    expect(v.every((w) => w.length >= 3)).toBe(true);
  });
});

describe('twoWordSplits', () => {
  it('cuts into two parts of 3+ letters', () => {
    expect(twoWordSplits('wordcount')).toContainEqual(['word', 'count']);
    expect(twoWordSplits('abcde')).toEqual([]);
    expect(twoWordSplits('abcdef')).toEqual([['abc', 'def']]);
  });
});
