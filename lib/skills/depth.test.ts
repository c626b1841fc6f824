import { describe, expect, it } from 'vitest';
import { exceedsDepth, jsonTextExceedsDepth } from './depth';

const nest = (n: number): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < n; i++) v = i % 2 ? [v] : { a: v };
  return v;
};

describe('the JSON nesting check', () => {
  it('agrees on a value and its text: n levels pass a limit of n, n + 1 do not', () => {
    for (const n of [1, 2, 5, 64]) {
      expect(jsonTextExceedsDepth(JSON.stringify(nest(n)), n)).toBe(false);
      expect(jsonTextExceedsDepth(JSON.stringify(nest(n + 1)), n)).toBe(true);
      // a value counts levels below the top: n objects deep is depth n - 1
      expect(exceedsDepth(nest(n), n - 1)).toBe(false);
      expect(exceedsDepth(nest(n + 1), n - 1)).toBe(true);
    }
  });

  it('does not count brackets inside strings', () => {
    expect(jsonTextExceedsDepth(JSON.stringify({ s: '[[[[[[[[[[' }), 3)).toBe(false);
    expect(jsonTextExceedsDepth(JSON.stringify({ s: 'a\\"[[[[[[' }), 3)).toBe(false);
    expect(jsonTextExceedsDepth('[[[[', 3)).toBe(true);
  });

  it('goes far deeper than the stack; shared references count once, a cycle without end', () => {
    expect(jsonTextExceedsDepth('['.repeat(1_000_000), 64)).toBe(true);
    expect(exceedsDepth(nest(200_000), 64)).toBe(true);
    const shared = { a: 1 };
    expect(exceedsDepth({ x: shared, y: [shared, shared] }, 3)).toBe(false);
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    // a cycle nests without end (YAML aliases can make one)
    expect(exceedsDepth(cycle, 1_000)).toBe(true);
  });
});
