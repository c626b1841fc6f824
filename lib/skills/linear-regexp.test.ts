// Issue 8 item 2: a publisher's JSON Schema pattern never runs on a backtracking engine.
// If it did, these tests would not finish (2^50 steps) and time out.

import { describe, expect, it } from 'vitest';
import { compileLinear, MAX_PATTERN_LENGTH, toRe2Syntax } from './linear-regexp';
import { compileToolSchema } from './schema';
import { codes, find, one } from './test-helpers';

const EVIL = '^(a+)+$';
const ATTACK = 'a'.repeat(50) + '!';

describe('patterns run in linear time', () => {
  it('a catastrophic pattern validates at once (lib/runtime/schema-cache.test.ts checks the runtime)', () => {
    const schema = { type: 'object', properties: { s: { type: 'string', pattern: EVIL } } };
    expect(compileToolSchema(schema)({ s: ATTACK })).toBe(false);
    expect(compileToolSchema(schema)({ s: 'aaaa' })).toBe(true);
    const nested = compileToolSchema({ type: 'object', properties: { s: { type: 'string', pattern: '(x+x+)+y' } } }, { useDefaults: true });
    expect(nested({ s: 'x'.repeat(5000) })).toBe(false);
    expect(nested({ s: 'xxy' })).toBe(true);
  });

  it('patternProperties keys use the same engine', () => {
    const v = compileToolSchema({ type: 'object', patternProperties: { [EVIL]: { type: 'integer' } }, additionalProperties: false });
    expect(v({ [ATTACK]: 1 })).toBe(false);
    expect(v({ aaa: 1 })).toBe(true);
  });

  it('JavaScript escapes are translated; semantics are kept', () => {
    expect(toRe2Syntax('\\u00e9\\u{1F600}\\/x')).toBe('\\x{00e9}\\x{1F600}/x');
    const v = compileToolSchema({ type: 'string', pattern: '^caf\\u00e9$' });
    expect(v('café')).toBe(true);
    expect(v('cafe')).toBe(false);
    expect(compileToolSchema({ type: 'string', pattern: '^\\d{3}-\\p{L}+$' })('123-Ünïcode')).toBe(true);
  });

  it('refuses lookaround, backreferences, huge repeats and overlong patterns with a reason', () => {
    expect(() => compileLinear('(?=a)b')).toThrow(/lookahead and lookbehind are not supported/);
    expect(() => compileLinear('(a)\\1')).toThrow(/backreferences/);
    expect(() => compileLinear('a{5000}')).toThrow(/invalid repeat count/);
    expect(() => compileLinear('a'.repeat(MAX_PATTERN_LENGTH + 1))).toThrow(/the limit is 1000/);
    expect(() => compileLinear('((a{900}){900}){900}')).toThrow();
  });

  it('the reader reports such a pattern where it is written', () => {
    const tools = JSON.stringify([{ name: 't', description: 'd', parameters: { s: { type: 'string', description: 's', pattern: '^(?!admin).*$' } } }]);
    const m = one({ 'x/SKILL.md': '---\nname: x\ndescription: y\n---\nBody\n', 'x/tools.json': tools });
    expect(codes(m)).toEqual(['schema/pattern-unsupported']);
    expect(find(m, 'schema/pattern-unsupported')).toMatchObject({ severity: 'error', file: 'x/tools.json', path: '/0/parameters/properties/s/pattern', message: expect.stringMatching(/lookahead/) });
    expect(m.tools[0].params).toBeNull();
  });
});

describe('one Ajv setup', () => {
  it('two skills may use the same $id; recursive refs resolve', () => {
    const a = compileToolSchema({ $id: 'https://example.com/s', type: 'object', properties: { n: { type: 'integer' } } });
    const b = compileToolSchema({ $id: 'https://example.com/s', type: 'object', properties: { n: { type: 'string' } } });
    expect(a({ n: 1 })).toBe(true);
    expect(b({ n: 1 })).toBe(false);
    const tree = compileToolSchema({ type: 'object', properties: { kids: { type: 'array', items: { $ref: '#' } } } });
    expect(tree({ kids: [{ kids: [] }] })).toBe(true);
    expect(tree({ kids: [{ kids: 1 }] })).toBe(false);
  });
});
