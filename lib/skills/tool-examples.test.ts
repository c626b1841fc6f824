import { describe, expect, it } from 'vitest';
import { codes, one, skillMd } from './test-helpers';

const params = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] };

describe('tool examples in every format that carries them', () => {
  it('reads examples on a tools.json entry (Skill Tools), arguments and expected result', () => {
    const m = one({
      'SKILL.md': skillMd('name: words\ndescription: Count words'),
      'tools.json': JSON.stringify([
        {
          name: 'count_words',
          description: 'Count words',
          script: 'scripts/count.js',
          input_schema: params,
          examples: [{ arguments: { text: 'a b' }, expected: { count: 2 } }, { name: 'empty', args: { text: '' } }],
        },
      ]),
      'scripts/count.js': 'export default async ({ text }) => ({ count: text.split(/\\s+/).filter(Boolean).length });',
    });
    expect(m.tools[0].examples).toEqual([{ arguments: { text: 'a b' }, expected: { count: 2 } }, { arguments: { text: '' }, name: 'empty' }]);
    expect(codes(m)).toEqual([]);
  });

  it('reads metadata.examples of a code skill and warns on arguments that do not fit', () => {
    const src = `export const frontmatter = { name: 'echo', description: 'Echo', metadata: { params: ${JSON.stringify(params)}, examples: [{ arguments: { text: 'hi' }, expected: 'hi' }, { arguments: { nope: 1 } }] } };
export default async (ctx, { text }) => text;`;
    const m = one({ 'echo.skill.js': src });
    expect(m.tools[0].examples).toEqual([{ arguments: { text: 'hi' }, expected: 'hi' }, { arguments: { nope: 1 } }]);
    expect(codes(m)).toEqual(['tool/example-args-invalid']);
  });

  it('reports a malformed list and entry with their path, keeping the good ones', () => {
    const bad = one({ 'x.skill.md': skillMd('name: x\ndescription: d\nmetadata:\n  examples: 3') });
    expect(bad.tools[0].examples).toBeUndefined();
    expect(codes(bad)).toContain('tool/examples-invalid');
    const mixed = one({ 'y.skill.md': skillMd('name: y\ndescription: d\nmetadata:\n  examples:\n    - 7\n    - arguments: {a: 1}') });
    expect(mixed.tools[0].examples).toEqual([{ arguments: { a: 1 } }]);
    expect(mixed.diagnostics.find((d) => d.code === 'tool/example-invalid')).toMatchObject({ path: '/metadata/examples/0' });
  });

  it('a tool without examples has no examples field', () => {
    const m = one({ 'z.skill.md': skillMd('name: z\ndescription: d') });
    expect('examples' in m.tools[0]).toBe(false);
  });
});
