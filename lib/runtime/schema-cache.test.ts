import { describe, expect, it } from 'vitest';
import { compileSchema } from './schema';

describe('compileSchema', () => {
  it('reuses one validator for equal schemas that are different objects (manifests loaded per request)', () => {
    const schema = { type: 'object', properties: { text: { type: 'string', default: 'x' } } };
    const a = compileSchema(schema);
    expect(compileSchema(structuredClone(schema))).toBe(a);
    expect(compileSchema(structuredClone(schema), false)).not.toBe(a); // defaults differ
    const args: Record<string, unknown> = {};
    expect(a(args)).toBe(true);
    expect(args.text).toBe('x');
  });

  it('keeps working past its size bound', () => {
    for (let i = 0; i < 2100; i++) compileSchema({ type: 'object', properties: { [`p${i}`]: { type: 'integer' } } });
    const v = compileSchema({ type: 'object', properties: { p5: { type: 'integer' } } });
    expect(v({ p5: 1 })).toBe(true);
    expect(v({ p5: 'no' })).toBe(false);
  }, 120_000); // 2,100 real compiles: slow on a busy machine

  it('runs a publisher pattern in linear time (issue 8: ReDoS on the web process)', () => {
    // On a backtracking engine this is 2^50 steps: the test would never finish.
    const v = compileSchema({ type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } } });
    expect(v({ s: 'a'.repeat(50) + '!' })).toBe(false);
    expect(v({ s: 'aaa' })).toBe(true);
    const keys = compileSchema({ type: 'object', patternProperties: { '^(a|aa)+$': { type: 'integer' } }, additionalProperties: false }, false);
    expect(keys({ ['a'.repeat(60) + 'b']: 1 })).toBe(false);
  });
});
