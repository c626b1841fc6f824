import { describe, expect, it } from 'vitest';
import { compileToolSchema, pathGet, resolveJsonSchema, SchemaCompileError, schemaDraft } from './schema';

describe('compileToolSchema', () => {
  it('compiles 2020-12 and draft-07 schemas and caches the validator', () => {
    const s2020 = { type: 'object', properties: { xs: { type: 'array', prefixItems: [{ type: 'string' }], items: false } } };
    const v = compileToolSchema(s2020);
    expect(v({ xs: ['a'] })).toBe(true);
    expect(v({ xs: ['a', 'b'] })).toBe(false);
    expect(compileToolSchema(s2020)).toBe(v);
    expect(compileToolSchema(structuredClone(s2020))).toBe(v);

    const d7 = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', definitions: { n: { type: 'integer' } }, properties: { n: { $ref: '#/definitions/n' } }, dependencies: { a: ['b'] } };
    const v7 = compileToolSchema(d7);
    expect(v7({ n: 1 })).toBe(true);
    expect(v7({ n: 1.5 })).toBe(false);
    expect(v7({ a: 1 })).toBe(false);
    expect(schemaDraft(d7)).toBe('draft-07');
  });

  it('$resolve is a keyword, never an error', () => {
    const v = compileToolSchema({ $resolve: 'nonlocals.gateway.sendSchema', type: 'object', properties: { message: { type: 'string' } } });
    expect(v({ message: 'hi' })).toBe(true);
    expect(v({ message: 1 })).toBe(false);
  });

  it('formats are checked', () => {
    const v = compileToolSchema({ type: 'object', properties: { d: { type: 'string', format: 'date' } } });
    expect(v({ d: '2024-02-29' })).toBe(true);
    expect(v({ d: 'tomorrow' })).toBe(false);
  });

  it('throws a coded error for schemas that do not compile', () => {
    expect(() => compileToolSchema({ $ref: '#/$defs/nope' })).toThrow(SchemaCompileError);
    expect(() => compileToolSchema({ $schema: 'http://json-schema.org/draft-04/schema#' })).toThrow(/unsupported/);
  });
});

describe('resolveJsonSchema', () => {
  const ctx = { nonlocals: { gateway: { sendSchema: { type: 'object', properties: { channel: { type: 'string' } }, required: ['channel'] } } }, list: [{ s: { type: 'number' } }] };

  it('replaces a schema whose $resolve path resolves to an object', () => {
    const schema = { $resolve: 'nonlocals.gateway.sendSchema', type: 'object', properties: { message: { type: 'string' } } };
    expect(resolveJsonSchema(schema, ctx)).toBe(ctx.nonlocals.gateway.sendSchema);
  });

  it('keeps the static schema when the path is missing or not an object', () => {
    const schema = { $resolve: 'nonlocals.gateway.missing', type: 'object' };
    expect(resolveJsonSchema(schema, ctx)).toBe(schema);
    expect(resolveJsonSchema({ $resolve: 'nonlocals', type: 'object' }, { nonlocals: null })).toEqual({ $resolve: 'nonlocals', type: 'object' });
    expect(resolveJsonSchema({ $resolve: 'x', type: 'object' }, { x: 'string' })).toEqual({ $resolve: 'x', type: 'object' });
  });

  it('resolves nested subschemas without mutating the input', () => {
    const schema = { type: 'object', properties: { a: { $resolve: 'list[0].s' }, b: { type: 'string' } } };
    const out = resolveJsonSchema(schema, ctx);
    expect(out).toEqual({ type: 'object', properties: { a: { type: 'number' }, b: { type: 'string' } } });
    expect(schema.properties.a).toEqual({ $resolve: 'list[0].s' });
  });

  it('never walks the prototype chain', () => {
    expect(pathGet({}, 'constructor.prototype')).toBeUndefined();
    expect(pathGet({ a: {} }, 'a.__proto__')).toBeUndefined();
    expect(pathGet({ a: { b: 1 } }, 'a.b')).toBe(1);
    expect(resolveJsonSchema({ $resolve: '__proto__', type: 'object' }, {})).toEqual({ $resolve: '__proto__', type: 'object' });
  });

  it('stops on self-referencing resolution', () => {
    const loop: Record<string, unknown> = { $resolve: 'me' };
    const c = { me: loop };
    expect(resolveJsonSchema(loop, c)).toBe(loop);
  });
});
