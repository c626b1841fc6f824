import { describe, expect, it } from 'vitest';
import { parseRange } from './http-range';

describe('parseRange', () => {
  it('reads the three forms of one range', () => {
    expect(parseRange('bytes=0-99', 1000)).toEqual({ kind: 'range', range: { start: 0, end: 99 } });
    expect(parseRange('bytes=900-', 1000)).toEqual({ kind: 'range', range: { start: 900, end: 999 } });
    expect(parseRange('bytes=-10', 1000)).toEqual({ kind: 'range', range: { start: 990, end: 999 } });
    expect(parseRange('bytes=990-5000', 1000)).toEqual({ kind: 'range', range: { start: 990, end: 999 } });
  });
  it('answers whole for no header, several ranges or nonsense, and 416 past the end', () => {
    expect(parseRange(null, 10)).toEqual({ kind: 'whole' });
    expect(parseRange('bytes=0-1,5-6', 10)).toEqual({ kind: 'whole' });
    expect(parseRange('items=0-1', 10)).toEqual({ kind: 'whole' });
    expect(parseRange('bytes=5-2', 10)).toEqual({ kind: 'whole' });
    expect(parseRange('bytes=10-', 10)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=-0', 10)).toEqual({ kind: 'unsatisfiable' });
  });
});
