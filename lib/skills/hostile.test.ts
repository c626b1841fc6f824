import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readSkillsFromPath } from './read-path';
import { codes, one, read, skillMd } from './test-helpers';

describe('hostile input', () => {
  it('a YAML alias bomb is stopped by the alias budget', () => {
    const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 9; i++) bomb.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(10).fill(`*${String.fromCharCode(96 + i)}`).join(',')}]`);
    const m = one({ 'x/SKILL.md': `---\nname: x\ndescription: y\nmetadata:\n  ${bomb.join('\n  ')}\n---\n` });
    expect(codes(m)).toEqual(['yaml/limit-exceeded']);
  });

  it('deep nesting is refused in YAML, JSON and Python literals', () => {
    const deepYaml = `---\nname: x\ndescription: y\nmetadata:\n  d: ${'['.repeat(100)}${']'.repeat(100)}\n---\n`;
    expect(codes(one({ 'x/SKILL.md': deepYaml }))).toEqual(['yaml/limit-exceeded']);
    const deepJson = `[${'{"a":'.repeat(100)}1${'}'.repeat(100)}]`;
    expect(codes(one({ 'x/SKILL.md': skillMd('name: x\ndescription: y'), 'x/tools.json': deepJson }))).toEqual(['json/limit-exceeded']);
    const veryDeep = `[${'['.repeat(200_000)}`;
    expect(codes(one({ 'x/SKILL.md': skillMd('name: x\ndescription: y'), 'x/tools.json': veryDeep }))).toEqual(['json/limit-exceeded']);
    const deepPy = `__version__ = "1.0.0"\n__tool_type__ = "python"\n__executor_id__ = "x"\n__category__ = "c"\n__tool_description__ = "d"\nCONFIG_SCHEMA = ${'['.repeat(100)}${']'.repeat(100)}\ndef execute(p, q): pass\n`;
    expect(codes(one({ 'p/.ai/tools/c/t.py': deepPy }))).toEqual(['python/syntax-error']);
  });

  it('binary, invalid UTF-8 and oversized parsed files are reported, not parsed', () => {
    expect(codes(one({ 'x/SKILL.md': new Uint8Array([0x2d, 0x2d, 0x2d, 0, 1, 2]) }))).toEqual(['file/binary']);
    expect(codes(one({ 'x/SKILL.md': new Uint8Array([0x2d, 0xff, 0xfe, 0x41]) }))).toEqual(['file/encoding']);
    const big = 'a'.repeat(1024 * 1024 + 1);
    // an asset (font, image, data) is stored, not parsed: only the package limits apply
    expect(codes(one({ 'x/SKILL.md': skillMd('name: x\ndescription: y'), 'x/data.txt': big }))).toEqual([]);
    // a handler the reader parses has the one-file limit
    expect(codes(one({ 'x/SKILL.md': skillMd('name: x\ndescription: y'), 'x/tools.json': '[{"name":"t","description":"d","script":"s.js"}]', 'x/s.js': `export default () => 1;//${big}` }))).toEqual(['file/too-large']);
    expect(codes(one({ 'x/SKILL.md': skillMd(`name: x\ndescription: y\nmetadata:\n  blob: "${big}"`) }))).toEqual(['file/too-large']);
  });

  it('package size and file-count limits', () => {
    const files: Record<string, string> = { 'x/SKILL.md': skillMd('name: x\ndescription: y') };
    for (let i = 0; i < 12; i++) files[`x/f${i}.txt`] = 'hello';
    expect(codes(one(files, { limits: { maxPackageFiles: 10 } }))).toEqual(['package/too-many-files']);
    expect(codes(one(files, { limits: { maxPackageBytes: 50 } }))).toEqual(['package/too-large']);
  });

  it('a tool-count limit (maxTools), with a diagnostic that names it', () => {
    const tools = (n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => ({ name: `t${i}`, description: 'd' })));
    const files = (n: number) => ({ 'x/SKILL.md': skillMd('name: x\ndescription: y'), 'x/tools.json': tools(n) });
    expect(codes(one(files(4), { limits: { maxTools: 4 } }))).toEqual([]);
    const over = one(files(5), { limits: { maxTools: 4 } });
    expect(codes(over)).toEqual(['package/too-many-tools']);
    expect(over.diagnostics[0]!.message).toContain('maxTools');
    // the default holds 13,000 tools off
    expect(codes(one(files(13_000)))).toContain('package/too-many-tools');
  });

  it('paths climbing out of the tree are rejected at the door', () => {
    const r = read({ '../x/SKILL.md': skillMd('name: x\ndescription: y'), '/etc/passwd': 'root', 'C:/win.ini': 'x', 'ok.skill.md': skillMd('name: ok\ndescription: y') });
    expect(r.diagnostics.map((d) => d.code)).toEqual(['path/outside-package', 'path/outside-package', 'path/outside-package']);
    expect(r.skills.map((s) => s.name)).toEqual(['ok']);
  });

  describe('on disk', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'skillyard-hostile-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('symlinks leaving the folder being read are never followed and are named in a diagnostic', async () => {
      const pkg = path.join(dir, 'linky');
      mkdirSync(pkg);
      writeFileSync(path.join(dir, 'secret.txt'), 'TOP SECRET');
      writeFileSync(path.join(pkg, 'SKILL.md'), skillMd('name: linky\ndescription: y'));
      symlinkSync(path.join(dir, 'secret.txt'), path.join(pkg, 'leak.txt'));
      symlinkSync('/', path.join(pkg, 'root'));
      const r = await readSkillsFromPath(pkg);
      const m = r.skills[0];
      expect(m.files).toEqual(['SKILL.md']);
      expect(m.diagnostics.map((d) => [d.code, d.file])).toEqual([
        ['path/symlink-outside', path.join(pkg, 'leak.txt')],
        ['path/symlink-outside', path.join(pkg, 'root')],
      ]);
      expect(JSON.stringify(r)).not.toContain('TOP SECRET');
    });

    it('a SKILL.md that is a symlink out of the folder is not read', async () => {
      const pkg = path.join(dir, 'linkmd');
      mkdirSync(pkg);
      writeFileSync(path.join(dir, 'real.md'), skillMd('name: linkmd\ndescription: y'));
      symlinkSync(path.join(dir, 'real.md'), path.join(pkg, 'SKILL.md'));
      const r = await readSkillsFromPath(pkg);
      expect(r.skills[0].diagnostics.map((d) => d.code)).toEqual(['path/symlink-outside']);
      expect(r.skills[0].description).toBe('');
    });

    it('a missing path is a diagnostic', async () => {
      const r = await readSkillsFromPath(path.join(dir, 'nope'));
      expect(r.diagnostics.map((d) => d.code)).toEqual(['path/not-found']);
    });
  });
});
