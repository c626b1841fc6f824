import { describe, expect, it } from 'vitest';
import { describeParams, exampleArgs, initialValues, valuesToArgs, type FormValues } from './schema-fields';

const params = {
  type: 'object',
  required: ['text'],
  properties: {
    separator: { type: 'string', enum: ['-', '_'], default: '-', description: 'between words' },
    text: { type: 'string', description: 'the title' },
    max_length: { type: 'integer', minimum: 1 },
    lower: { type: 'boolean', default: true },
    tags: { type: 'array', items: { type: 'string' } },
  },
};

describe('describeParams', () => {
  it('lists required fields first with types, enums, defaults and descriptions', () => {
    const fields = describeParams(params);
    expect(fields.map((f) => f.name)).toEqual(['text', 'separator', 'max_length', 'lower', 'tags']);
    expect(fields[0]).toMatchObject({ required: true, kind: 'text', description: 'the title' });
    expect(fields[1]).toMatchObject({ kind: 'enum', type: '"-" | "_"', default: '-', enum: ['-', '_'] });
    expect(fields[4]).toMatchObject({ kind: 'json', type: 'string[]' });
  });

  it('answers [] for a schema without properties', () => {
    expect(describeParams(null)).toEqual([]);
    expect(describeParams({ type: 'string' })).toEqual([]);
  });
});

describe('exampleArgs', () => {
  it('fills every required field and leaves optional ones out', () => {
    expect(exampleArgs(params)).toEqual({ text: 'example text' });
    expect(exampleArgs({ type: 'object', required: ['n', 'mode'], properties: { n: { type: 'integer', minimum: 3 }, mode: { enum: ['a', 'b'] } } })).toEqual({ n: 3, mode: 'a' });
  });
});

describe('valuesToArgs', () => {
  const fields = describeParams(params);
  it('starts from the defaults and converts values by type', () => {
    const values: FormValues = { ...initialValues(fields), text: 'Hello', max_length: '12', tags: '["a"]' };
    expect(values.separator).toBe('-');
    expect(values.lower).toBe(true);
    expect(valuesToArgs(fields, values)).toEqual({ args: { text: 'Hello', separator: '-', max_length: 12, lower: true, tags: ['a'] }, problems: {} });
  });

  it('reports a missing required field and bad numbers or JSON per field', () => {
    const { problems } = valuesToArgs(fields, { ...initialValues(fields), max_length: '1.5', tags: '[' });
    expect(problems).toEqual({ text: 'required', max_length: 'not an integer', tags: 'not valid JSON' });
  });
});
