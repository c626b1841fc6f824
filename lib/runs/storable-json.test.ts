import { describe, expect, it } from 'vitest';
import { MAX_RUN_JSON_DEPTH, assertJsonDepth, storableString, toStorableJson } from './storable-json';

const nest = (depth: number) => {
  let v: unknown = 'leaf';
  for (let i = 0; i < depth; i++) v = { v };
  return v;
};

describe('toStorableJson', () => {
  it('escapes NULs in values and keys as the six characters \\u0000', () => {
    expect(toStorableJson({ 'a\u0000': ['x\u0000y'] })).toEqual({ 'a\\u0000': ['x\\u0000y'] });
    expect(JSON.stringify(toStorableJson('\u0000'))).toBe('"\\\\u0000"');
  });

  it('replaces lone surrogates and keeps pairs', () => {
    expect(storableString('a\ud800b\udc00c')).toBe('a\uFFFDb\uFFFDc');
    expect(storableString('😀')).toBe('😀');
  });

  it('drops what JSON drops and honours toJSON', () => {
    expect(toStorableJson({ a: undefined, f: () => 1, d: new Date(0), n: NaN, arr: [undefined] })).toEqual({
      d: '1970-01-01T00:00:00.000Z',
      n: null,
      arr: [null],
    });
  });

  it(`accepts ${MAX_RUN_JSON_DEPTH} levels and refuses one more with run/too-deep`, () => {
    expect(() => toStorableJson(nest(MAX_RUN_JSON_DEPTH))).not.toThrow();
    expect(() => toStorableJson(nest(MAX_RUN_JSON_DEPTH + 1), 'the result')).toThrow(
      expect.objectContaining({ code: 'run/too-deep', message: expect.stringContaining('the result is nested more than 64') }),
    );
  });

  it('refuses a value nested 100,000 deep without overflowing the stack', () => {
    expect(() => toStorableJson(nest(100_000))).toThrow(expect.objectContaining({ code: 'run/too-deep' }));
    expect(() => assertJsonDepth(nest(100_000))).toThrow(expect.objectContaining({ code: 'run/too-deep' }));
  });

  it('refuses cycles and BigInt with run/unstorable; a repeated (acyclic) object is fine', () => {
    const a: Record<string, unknown> = {};
    a.self = a;
    expect(() => toStorableJson(a)).toThrow(expect.objectContaining({ code: 'run/unstorable' }));
    expect(() => toStorableJson({ n: 1n })).toThrow(expect.objectContaining({ code: 'run/unstorable' }));
    const shared = { x: 1 };
    expect(toStorableJson([shared, shared])).toEqual([{ x: 1 }, { x: 1 }]);
  });
});
