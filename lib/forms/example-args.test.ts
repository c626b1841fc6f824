import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileToolSchema, readSkillsFromPath } from '../skills';
import { buildExampleArgs } from './example-args';

const valid = (schema: Record<string, unknown>, v: unknown) => compileToolSchema(schema)(structuredClone(v)) === true;

describe('buildExampleArgs', () => {
  it('builds values valid against formats, enums, patterns, lengths, ranges, minItems and nested objects', () => {
    const schema = {
      type: 'object',
      properties: {
        day: { type: 'string', format: 'date' },
        at: { type: 'string', format: 'date-time' },
        email: { type: 'string', format: 'email' },
        site: { type: 'string', format: 'uri' },
        id: { type: 'string', format: 'uuid' },
        kind: { type: 'string', enum: ['a', 'b'] },
        code: { type: 'string', pattern: '^[A-Z]{3}-[0-9]{2}$' },
        name: { type: 'string', minLength: 3, maxLength: 10 },
        size: { type: 'integer', minimum: 5, maximum: 9 },
        ratio: { type: 'number', exclusiveMaximum: 0 },
        inputs: { type: 'array', items: { type: 'string' }, minItems: 2 },
        owner: { type: 'object', properties: { login: { type: 'string', minLength: 1 }, since: { type: 'string', format: 'date' } }, required: ['login', 'since'] },
      },
      required: ['day', 'at', 'email', 'site', 'id', 'kind', 'code', 'name', 'size', 'ratio', 'inputs', 'owner'],
    };
    const out = buildExampleArgs(schema);
    expect(out.source).toBe('sampled');
    expect(valid(schema, out.args)).toBe(true);
    expect(out.args.day).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(out.args.size).toBe(5);
    // an enum's first value, whatever order the stored schema's keys come in
    expect(out.args.kind).toBe('a');
    expect(
      buildExampleArgs({ type: 'object', required: ['mode', 'text'], properties: { text: { type: 'string' }, mode: { enum: ['encode', 'decode'], type: 'string' } } }).args.mode,
    ).toBe('encode');
    expect((out.args.inputs as unknown[]).length).toBeGreaterThanOrEqual(2);
    // the same schema gives the same example every time (seeded)
    expect(buildExampleArgs(schema).args).toEqual(out.args);
  });

  it('uses the tool’s own examples first, then a field’s example or default, then its description’s "e.g."', () => {
    const own = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], examples: [{ a: 'mine' }] };
    expect(buildExampleArgs(own)).toEqual({ args: { a: 'mine' }, source: 'examples', problem: null });
    const fields = {
      type: 'object',
      properties: {
        unit: { type: 'string', description: 'Unit of value, e.g. "mi".' },
        width: { type: 'integer', default: 80 },
        tag: { type: 'string', examples: ['red'] },
        notebook: { type: 'string', pattern: '^[a-z-]+$', description: 'e.g. "trip-planning"' },
      },
      required: ['unit', 'width', 'notebook'],
    };
    // optional fields only when they carry an example
    expect(buildExampleArgs(fields).args).toEqual({ unit: 'mi', width: 80, notebook: 'trip-planning', tag: 'red' });
  });

  it('skips an example of the tool’s own that breaks its schema', () => {
    const schema = { type: 'object', properties: { n: { type: 'integer', minimum: 1 } }, required: ['n'], examples: [{ n: 0 }] };
    const out = buildExampleArgs(schema);
    expect(out.source).toBe('sampled');
    expect(out.args).toEqual({ n: 1 });
  });

  it('falls back to stand-ins and says why when no valid example exists', () => {
    const impossible = { type: 'object', properties: { x: { type: 'string', minLength: 5, maxLength: 2 } }, required: ['x'] };
    const out = buildExampleArgs(impossible);
    expect(out.source).toBe('stand-in');
    expect(out.problem).toMatch(/no example valid against the parameters/);
  });

  it('gives every tool of the bundled skills arguments valid against its schema', async () => {
    const r = await readSkillsFromPath(path.join(import.meta.dirname, '../../skills'));
    const tools = r.skills.flatMap((s) => s.tools);
    expect(tools.length).toBeGreaterThan(15);
    for (const t of tools) {
      const out = buildExampleArgs(t.params);
      expect(out.source, t.name).not.toBe('stand-in');
      if (t.params) expect(valid(t.params, out.args), `${t.name}: ${JSON.stringify(out.args)}`).toBe(true);
    }
  });
});
