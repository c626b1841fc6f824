import { describe, expect, it } from 'vitest';
import { codes, find, one, read, skillMd } from '../test-helpers';

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

describe('single-file .skill.md', () => {
  it('is one markdown tool when it has no delegate', () => {
    const m = one({ 'greet.skill.md': skillMd('name: greet\ndescription: Greets.\nmetadata:\n  role: main\n  visibility: hidden\n  tags: [Hello World]', 'Say hello.') });
    expect(m.format).toBe('skill-md');
    expect(m.files).toEqual(['greet.skill.md']);
    expect(m.tools).toEqual([
      expect.objectContaining({ name: 'greet', sourceName: 'greet', role: 'main', visibility: 'hidden', tags: ['hello-world'], handler: { kind: 'markdown', ref: 'greet.skill.md' } }),
    ]);
    expect(m.instructions).toBe('Say hello.\n');
  });

  it('inline://code delegates are checked by parsing', () => {
    const ok = one({ 'g.skill.md': skillMd('name: g\ndescription: d\nmetadata:\n  delegate: "inline://code,export default async function(ctx, { name }) { return `Hello, \\\\${name}!`; }"') });
    expect(ok.diagnostics).toEqual([]);
    expect(ok.tools[0].handler.kind).toBe('inline-code');
    expect(ok.tools[0].handler.ref).toBe('inline://code,export default async function(ctx, { name }) { return `Hello, \\${name}!`; }');
    const noDefault = one({ 'g.skill.md': skillMd('name: g\ndescription: d\nmetadata:\n  delegate: "inline://code,export const x = 1"') });
    expect(codes(noDefault)).toEqual(['delegate/no-default-export']);
    const syntax = one({ 'g.skill.md': skillMd('name: g\ndescription: d\nmetadata:\n  delegate: "inline://code,export default function( {"') });
    expect(find(syntax, 'delegate/code-syntax')).toMatchObject({ path: '/metadata/delegate', line: 5 });
  });

  it('inline://base64 decodes recursively to the final ref', () => {
    const code = 'inline://code,export default async () => 1';
    const twice = `inline://base64,${b64(`inline://base64,${b64(code)}`)}`;
    const m = one({ 'g.skill.md': skillMd(`name: g\ndescription: d\nmetadata:\n  delegate: "${twice}"`) });
    expect(m.diagnostics).toEqual([]);
    expect(m.tools[0].handler).toEqual({ kind: 'inline-code', ref: code });
    // the seed's own example
    const seed = 'inline://base64,aW5saW5lOi8vY29kZSxleHBvcnQgZGVmYXVsdCBhc3luYyBmdW5jdGlvbihjdHgsIHsgbmFtZSB9KSB7IHJldHVybiBgSGVsbG8sICR7bmFtZX0hYDsgfQ==';
    const s = one({ 'g.skill.md': skillMd(`name: g\ndescription: d\nmetadata:\n  delegate: "${seed}"`) });
    expect(s.tools[0].handler.kind).toBe('inline-code');
    expect(s.diagnostics).toEqual([]);
  });

  it('bounds base64 recursion and rejects bad payloads', () => {
    let ref = 'inline://code,export default 1';
    for (let i = 0; i < 12; i++) ref = `inline://base64,${b64(ref)}`;
    expect(codes(one({ 'g.skill.md': skillMd(`name: g\ndescription: d\nmetadata:\n  delegate: "${ref}"`) }))).toEqual(['delegate/inline-too-deep']);
    expect(codes(one({ 'g.skill.md': skillMd('name: g\ndescription: d\nmetadata:\n  delegate: "inline://base64,!!!"') }))).toEqual(['delegate/base64-invalid']);
    expect(codes(one({ 'g.skill.md': skillMd(`name: g\ndescription: d\nmetadata:\n  delegate: "inline://base64,${b64('plain text')}"`) }))).toEqual(['delegate/base64-invalid']);
    expect(codes(one({ 'g.skill.md': skillMd('name: g\ndescription: d\nmetadata:\n  delegate: "inline://python,print(1)"') }))).toEqual(['delegate/inline-tag-unknown']);
    expect(codes(one({ 'g.skill.md': skillMd('name: g\ndescription: d\nmetadata:\n  delegate: "https://evil.example/x.js"') }))).toEqual(['delegate/scheme-unsupported']);
  });

  it('inline://markdown is parsed like a .skill.md', () => {
    const m = one({ 'g.skill.md': skillMd('name: g\ndescription: d\nmetadata:\n  delegate: "inline://markdown,---\\nname: x\\ndescription: inner\\n---\\nDo the thing."') });
    expect(m.tools[0].handler.kind).toBe('markdown');
    expect(m.diagnostics).toEqual([]);
    const bad = one({ 'g.skill.md': skillMd('name: g\ndescription: d\nmetadata:\n  delegate: "inline://markdown,no frontmatter"') });
    expect(codes(bad)).toContain('delegate/markdown-invalid');
    // problems inside the inline text point at the delegate's line of the outer file
    const inner = one({ 'g.skill.md': skillMd('name: g\ndescription: d\nmetadata:\n  delegate: "inline://markdown,---\\nname: Bad Name\\ndescription: x\\n---\\nDo."') });
    expect(inner.diagnostics.map((d) => [d.code, d.line])).toEqual([['skill/name-invalid', 5]]);
  });

  it('path delegates resolve beside the file and never outside it', () => {
    const m = read({ 'pkg/g.skill.md': skillMd('name: g\ndescription: d\nmetadata:\n  delegate: ./lib/g.ts'), 'pkg/lib/g.ts': 'export default async () => 1;' }).skills[0];
    expect(m.tools[0].handler).toEqual({ kind: 'ts', ref: 'lib/g.ts' });
    expect(m.files).toEqual(['g.skill.md', 'lib/g.ts']);
    expect(codes(m)).toEqual([]);
    const out = read({ 'pkg/g.skill.md': skillMd('name: g\ndescription: d\nmetadata:\n  delegate: ../secret.js'), 'secret.js': 'export default 1' }).skills[0];
    expect(codes(out)).toEqual(['path/outside-package']);
    const missing = one({ 'g.skill.md': skillMd('name: g\ndescription: d\nmetadata:\n  delegate: ./nope.js') });
    expect(codes(missing)).toEqual(['delegate/not-found']);
    const kind = one({ 'g.skill.md': skillMd('name: g\ndescription: d\nmetadata:\n  delegate: ./x.rb'), 'x.rb': 'puts 1' });
    expect(codes(kind)).toEqual(['delegate/type-unknown']);
  });

  it('warns when the name differs from the file name', () => {
    expect(find(one({ 'a.skill.md': skillMd('name: b\ndescription: d') }), 'skill/name-file-mismatch')).toMatchObject({ severity: 'warning', line: 2 });
  });

  it('checks params/returns schemas', () => {
    const m = one({ 'a.skill.md': skillMd('name: a\ndescription: d\nmetadata:\n  params:\n    type: string\n  returns:\n    type: object\n    properties:\n      x: { type: string, pattern: "([" }') });
    expect(codes(m).sort()).toEqual(['schema/params-not-object', 'schema/pattern-invalid']);
    expect(find(m, 'schema/pattern-invalid')).toMatchObject({ path: '/metadata/returns/properties/x/pattern', line: 10 });
    expect(m.tools[0].params).toBeNull();
  });
});

describe('inline delegate interpolation', () => {
  it('warns about an unescaped ${ in inline code, not about \\${ or base64', () => {
    const w = one({ 'g.skill.md': skillMd('name: g\ndescription: d\nmetadata:\n  delegate: "inline://code,export default async (ctx, { n }) => `Hi ${n}`"') });
    expect(codes(w)).toEqual(['delegate/unescaped-interpolation']);
    const ok = one({ 'g.skill.md': skillMd('name: g\ndescription: d\nmetadata:\n  delegate: "inline://code,export default async (ctx, { n }) => `Hi \\\\${n}`"') });
    expect(codes(ok)).toEqual([]);
    const b = Buffer.from('inline://code,export default async (ctx, { n }) => `Hi ${n}`').toString('base64');
    expect(codes(one({ 'g.skill.md': skillMd(`name: g\ndescription: d\nmetadata:\n  delegate: "inline://base64,${b}"`) }))).toEqual([]);
  });
});
