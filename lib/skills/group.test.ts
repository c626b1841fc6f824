import { describe, expect, it } from 'vitest';
import { addToGroup } from './group';

describe('addToGroup', () => {
  it('appends in order under each key, in the order keys first came', () => {
    const groups = new Map<string, number[]>();
    for (const [k, v] of [['a', 1], ['b', 2], ['a', 3]] as const) addToGroup(groups, k, v);
    expect([...groups]).toEqual([
      ['a', [1, 3]],
      ['b', [2]],
    ]);
  });
});
