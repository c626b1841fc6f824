// The slice cache keeps at most its bytes, drops the least recently used first, and
// forgets a version's slices.
import { describe, expect, it } from 'vitest';
import { SliceCache } from './slice-cache';

const bytes = (n: number) => new Uint8Array(n);

describe('SliceCache', () => {
  it('holds at most maxBytes, dropping the least recently used', () => {
    const cache = new SliceCache(10);
    cache.set('a:0', bytes(4));
    cache.set('b:0', bytes(4));
    expect(cache.get('a:0')).toBeDefined(); // a is now the most recently used
    cache.set('c:0', bytes(4)); // 12 > 10: b goes
    expect(cache.get('b:0')).toBeUndefined();
    expect(cache.get('a:0')?.byteLength).toBe(4);
    expect(cache.get('c:0')?.byteLength).toBe(4);
    expect(cache.size).toBe(8);
  });

  it('never keeps a slice larger than itself, nor anything when sized 0', () => {
    const cache = new SliceCache(10);
    cache.set('big:0', bytes(11));
    expect(cache.get('big:0')).toBeUndefined();
    const off = new SliceCache(0);
    off.set('a:0', bytes(1));
    expect(off.get('a:0')).toBeUndefined();
    expect(off.size).toBe(0);
  });

  it('replaces a key without counting it twice, and forgets by prefix', () => {
    const cache = new SliceCache(100);
    cache.set('v1:0', bytes(10));
    cache.set('v1:0', bytes(20));
    cache.set('v1:20', bytes(5));
    cache.set('v2:0', bytes(7));
    expect(cache.size).toBe(32);
    cache.forget('v1:');
    expect(cache.size).toBe(7);
    expect(cache.get('v1:0')).toBeUndefined();
    expect(cache.get('v2:0')?.byteLength).toBe(7);
  });
});
