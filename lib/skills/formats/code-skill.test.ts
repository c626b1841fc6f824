import { describe, expect, it } from 'vitest';
import { codes, find, one } from '../test-helpers';

describe('code skills (.skill.js / .skill.ts)', () => {
  it('reads the exported frontmatter from the AST, following local constants', () => {
    const src = `
const schema = { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] } as const;
export const frontmatter = {
  name: 'validate',
  description: 'Validate a note',
  'allowed-tools': ['read-file'],
  metadata: { params: schema, version: '2.0.0', tags: ['Notes'] },
} satisfies Record<string, unknown>;
export default async function (ctx: unknown, { title }: { title: string }) {
  if (!title) return { error: 'INVALID', message: 'Title required' };
  return { valid: true };
}`;
    const m = one({ 'validate.skill.ts': src });
    expect(m.diagnostics).toEqual([]);
    expect(m.format).toBe('code-skill');
    expect(m.version).toBe('2.0.0');
    expect(m.allowedTools).toBe('read-file');
    expect(m.tools[0]).toMatchObject({ name: 'validate', handler: { kind: 'ts', ref: 'validate.skill.ts' }, tags: ['notes'], params: { type: 'object', required: ['title'] } });
  });

  it('never runs code: a computed frontmatter is reported, not evaluated', () => {
    const m = one({ 'x.skill.js': "globalThis.pwned = true;\nexport const frontmatter = { name: 'x', description: process.env.HOME };\nexport default async () => 1;" });
    expect((globalThis as Record<string, unknown>).pwned).toBeUndefined();
    expect(find(m, 'code/frontmatter-not-literal')).toMatchObject({ line: 2 });
  });

  it('requires a default export and a frontmatter', () => {
    expect(codes(one({ 'x.skill.js': "export const frontmatter = { name: 'x', description: 'd' };" }))).toEqual(['code/no-default-export']);
    expect(codes(one({ 'x.skill.js': 'export default async () => 1;' }))).toEqual(['code/frontmatter-missing']);
    expect(codes(one({ 'x.skill.js': 'export { run as default }; function run() {}\nexport const frontmatter = { name: "x", description: "d" };' }))).toEqual([]);
    expect(find(one({ 'x.skill.ts': 'export default function (\n  {' }), 'code/syntax-error')).toBeDefined();
  });
});
