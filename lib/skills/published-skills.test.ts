// Issue 14: what people really publish. Each case is a fixture written for it: no false
// alarm on what agents accept, no silence on what is broken.

import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readSkillsFromPath } from './read-path';
import { keyIdOf } from './signature';
import { codes, find, one, read, skillMd } from './test-helpers';

const ryePy = (category: string, extra = '', body = '    return {"success": True}') =>
  `__version__ = "1.0.0"\n__tool_type__ = "python"\n__executor_id__ = "rye/core/runtimes/python/function"\n__category__ = "${category}"\n__tool_description__ = "A tool in ${category}"\n${extra}\ndef execute(params, project_path):\n${body}\n`;

describe('false alarms removed', () => {
  it('a Rye signature in padded base64url verifies', () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const body = ryePy('util');
    const hash = createHash('sha256').update(body, 'utf8').digest('hex');
    const sig = sign(null, Buffer.from(hash, 'ascii'), privateKey).toString('base64'); // padded, no + or / needed to test '='
    const padded = Buffer.from(sig, 'base64').toString('base64url') + '==';
    const file = `# rye:signed:2026-05-01T00:00:00Z:${hash}:${padded}:${keyIdOf(publicKey)}\n${body}`;
    const m = one({ 'p/.ai/tools/util/t.py': file }, { trustedKeys: [publicKey] });
    expect(codes(m)).toEqual([]);
    expect(m.signature).toMatchObject({ verified: true });
  });

  it('Rye tools of the same stem in different categories are two tools', () => {
    const m = one({ 'p/.ai/tools/git/status.py': ryePy('git'), 'p/.ai/tools/svn/status.py': ryePy('svn') });
    expect(codes(m)).toEqual([]);
    expect(m.tools.map((t) => [t.name, t.sourceName]).sort()).toEqual([
      ['git-status', 'status'],
      ['svn-status', 'status'],
    ]);
    // the same name twice in one category is still a duplicate
    const dup = one({ 'p/.ai/tools/git/status.py': ryePy('git'), 'p/.ai/tools/git/status.yaml': 'tool_id: status\ntool_type: yaml\nversion: 1.0.0\nexecutor_id: x\ncategory: git\ndescription: d\n' });
    expect(codes(dup)).toEqual(['tool/duplicate-name']);
    expect(find(dup, 'tool/duplicate-name')).toMatchObject({ file: 'p/.ai/tools/git/status.yaml', message: '.ai/tools/git/status.py already defines a Rye tool named "status" in the category "git"' });
  });

  it('categories a/b and a-b that flatten alike are not a duplicate: the refs spell the folder separator', () => {
    const m = one({ 'p/.ai/tools/a/b/c.py': ryePy('a/b'), 'p/.ai/tools/a-b/c.py': ryePy('a-b') });
    expect(codes(m)).toEqual([]);
    expect(m.tools.map((t) => [t.name, (m.metadata.rye as { tools: Record<string, { file: string }> }).tools[t.name].file]).sort()).toEqual([
      ['a--b-c', '.ai/tools/a/b/c.py'],
      ['a-b-c', '.ai/tools/a-b/c.py'],
    ]);
    // folders that differ only in '_' vs '-' cannot be told apart in a ref: said plainly, naming both
    const clash = one({ 'p/.ai/tools/a_b/c.py': ryePy('a_b'), 'p/.ai/tools/a-b/c.py': ryePy('a-b') });
    expect(clash.tools).toHaveLength(1);
    expect(clash.diagnostics).toEqual([
      expect.objectContaining({ code: 'tool/duplicate-name', message: expect.stringMatching(/^the Rye tools "a-b\/c" \(\.ai\/tools\/a-b\/c\.py\) and "a_b\/c" both get the tool ref "a-b-c"/) }),
    ]);
    expect(clash.diagnostics[0].message).not.toMatch(/same category/);
  });

  it('execute() returning a dict with "success" and a ** spread is fine', () => {
    const m = one({ 'p/.ai/tools/u/t.py': ryePy('u', '', '    base = {"output": 1}\n    return {"success": True, **base}') });
    expect(codes(m)).toEqual([]);
    const spreadOnly = one({ 'p/.ai/tools/u/t.py': ryePy('u', '', '    base = {"success": True}\n    return {**base, "output": 2}') });
    expect(codes(spreadOnly)).toEqual([]);
    const missing = one({ 'p/.ai/tools/u/t.py': ryePy('u', '', '    return {"output": 2}') });
    expect(codes(missing)).toEqual(['rye/execute-return']);
  });

  it('a value starting with * is a plain yaml/invalid that says where and why', () => {
    const m = one({ 'x/SKILL.md': skillMd('name: x\ndescription: **bold** claims') });
    const d = find(m, 'yaml/invalid')!;
    expect(d).toMatchObject({ severity: 'error', file: 'x/SKILL.md', line: 3 });
    expect(d.message).toMatch(/\*bold\*\* is read as a YAML alias.*quote the value/);
    expect(codes(m)).not.toContain('yaml/limit-exceeded');
    const alone = one({ 'x/SKILL.md': skillMd('name: x\ndescription: **bold**') });
    expect(find(alone, 'yaml/invalid')).toMatchObject({ line: 3, message: expect.stringMatching(/no anchor &\*bold\*\* is set/) });
  });

  it('a symlink outside every package is nobody\'s concern; one inside a package that resolves inside the tree is read, with a note', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'skillyard-links-'));
    try {
      mkdirSync(path.join(dir, 'skills/pdf'), { recursive: true });
      writeFileSync(path.join(dir, 'CLAUDE.md'), '# notes\n');
      symlinkSync('CLAUDE.md', path.join(dir, 'AGENTS.md'));
      writeFileSync(path.join(dir, 'skills/pdf/SKILL.md'), skillMd('name: pdf\ndescription: Reads PDFs'));
      const r = await readSkillsFromPath(dir);
      expect(r.diagnostics).toEqual([]);
      expect(r.skills.map((s) => [s.name, codes(s)])).toEqual([['pdf', []]]);
      symlinkSync('../../CLAUDE.md', path.join(dir, 'skills/pdf/NOTES.md'));
      const r2 = await readSkillsFromPath(dir);
      expect(r2.skills[0].diagnostics.map((d) => [d.severity, d.code])).toEqual([['note', 'path/symlink-followed']]);
      expect(r2.skills[0].files).toContain('NOTES.md');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('description length is counted in characters, not UTF-16 units', () => {
    const emoji = '🙂'.repeat(1000); // 1,000 characters, 2,000 UTF-16 units
    expect(codes(one({ 'x/SKILL.md': skillMd(`name: x\ndescription: "${emoji}"`) }))).toEqual([]);
    const long = one({ 'x/SKILL.md': skillMd(`name: x\ndescription: "${'🙂'.repeat(1025)}"`) });
    expect(find(long, 'skill/description-too-long')?.message).toContain('1025 characters');
  });

  it('rye/requires-invalid is a warning, as registered; a requires that is not a list is a field error', () => {
    const head = 'tool_id: a\ntool_type: yaml\nversion: 1.0.0\nexecutor_id: x\ncategory: c\ndescription: d\n';
    const bad = one({ 'p/.ai/tools/c/a.yaml': `${head}requires: [Shell Execute]\n` });
    expect(find(bad, 'rye/requires-invalid')?.severity).toBe('warning');
    expect(find(one({ 'p/.ai/tools/c/a.yaml': `${head}requires: fs.write\n` }), 'rye/field-invalid')).toMatchObject({ severity: 'error', path: '/requires' });
  });

  it('a plain description with ": " in it is read whole, with one warning at its line (YAML alone would stop there)', () => {
    const m = one({ 'x/SKILL.md': skillMd('name: x\ndescription: Use it for marketing work: copy, ads and emails.\nmetadata:\n  when: Ask: for help') });
    expect(codes(m)).toEqual(['yaml/unquoted-colon', 'yaml/unquoted-colon']);
    expect(m.diagnostics.map((d) => d.line)).toEqual([3, 5]);
    expect(m.description).toBe('Use it for marketing work: copy, ads and emails.');
    expect(m.metadata).toMatchObject({ when: 'Ask: for help' });
  });

  it('what cannot be repaired stays one yaml/invalid at its line, not also description-invalid', () => {
    // a comment after the value: quoting would change what it means, so it is not touched
    const m = one({ 'x/SKILL.md': skillMd('name: x\ndescription: Use it for marketing work: copy # and ads') });
    expect(codes(m)).toEqual(['yaml/invalid']);
    expect(m.diagnostics[0]).toMatchObject({ line: 3 });
  });

  it("Claude Code's SKILL.md fields and common registry fields are not unknown", () => {
    const fm = [
      'name: x',
      'description: y',
      'user-invocable: true',
      'argument-hint: "[file]"',
      'disable-model-invocation: false',
      'context: fork',
      'agent: Explore',
      'model: sonnet',
      'when_to_use: when asked',
      'effort: high',
      'shell: bash',
      'disallowed-tools: Write',
      'paths: ["src/**"]',
      'arguments: [file]',
      'license: MIT',
      'allowed-tools: Read Grep',
      'homepage: https://example.com',
      'version: 1.2.0',
      'tags: [pdf, 2024]',
      'metadata:\n  author: me',
    ].join('\n');
    const m = one({ 'x/SKILL.md': skillMd(fm) });
    expect(m.diagnostics).toEqual([]);
    expect(m.version).toBe('1.2.0');
    expect(m.metadata).toMatchObject({ 'user-invocable': true, model: 'sonnet', tags: ['pdf', '2024'], author: 'me' });
    expect(codes(one({ 'x/SKILL.md': skillMd('name: x\ndescription: y\nfavourite-colour: blue') }))).toEqual(['frontmatter/unknown-field']);
  });

  it('agent-apps rules apply to agent-apps skills, not to every SKILL.md', () => {
    const plain = one({ 'x/SKILL.md': skillMd('name: x\ndescription: y\nrole: reviewer\ntags: [1, 2]') });
    expect(plain.diagnostics).toEqual([]);
    const apps = one({ 'x.skill.md': skillMd('name: x\ndescription: y\nmetadata:\n  role: reviewer\n  tags: [1, 2]') });
    expect(codes(apps).sort()).toEqual(['metadata/role-invalid', 'metadata/tags-invalid']);
  });

  it('quoted multi-line scalars that YAML 1.1 parsers accept are read, with a warning', () => {
    const text = '---\nname: x\ndescription: "Reads PDF files\nand extracts their text"\nlicense: MIT\n---\nBody\n';
    const m = one({ 'x/SKILL.md': text });
    expect(m.description).toBe('Reads PDF files and extracts their text');
    expect(m.metadata).toEqual({ license: 'MIT' });
    expect(m.diagnostics).toEqual([expect.objectContaining({ severity: 'warning', code: 'yaml/quoted-multiline', line: 3 })]);
    expect(m.diagnostics[0].message).toMatch(/Indent the continuation lines, or use a block scalar/);
    const single = one({ 'x/SKILL.md': "---\nname: x\ndescription: 'It''s\nfine'\n---\nBody\n" });
    expect(single.description).toBe("It's fine");
    // a quote that never closes is still an error
    expect(codes(one({ 'x/SKILL.md': '---\nname: x\ndescription: "never closed\n---\nBody\n' }))).toContain('yaml/invalid');
  });

  it('size limits: assets of any size up to the package limits; only parsed files have the 1 MB limit', () => {
    const font = new Uint8Array(3 * 1024 * 1024); // a 3 MB font
    const files: Record<string, string | Uint8Array> = { 'x/SKILL.md': skillMd('name: x\ndescription: y'), 'x/assets/font.ttf': font };
    for (let i = 0; i < 700; i++) files[`x/vendor/lib${i}.py`] = `# vendored ${i}\n`;
    expect(codes(one(files))).toEqual([]);
    expect(codes(one(files, { limits: { maxPackageBytes: 2 * 1024 * 1024 } }))).toEqual(['package/too-large']);
    expect(codes(one(files, { limits: { maxPackageFiles: 500 } }))).toEqual(['package/too-many-files']);
  });
});

describe('silences ended', () => {
  it('skill.md, Skill.md and SKILL.MD are detected, with a warning about the name', () => {
    const r = read({ 'a/skill.md': skillMd('name: a\ndescription: y'), 'b/Skill.md': skillMd('name: b\ndescription: y'), 'c/SKILL.MD': skillMd('name: c\ndescription: y') });
    expect(r.skills.map((s) => [s.name, codes(s)])).toEqual([
      ['a', ['skill/file-name-case']],
      ['b', ['skill/file-name-case']],
      ['c', ['skill/file-name-case']],
    ]);
    expect(r.skills[0].description).toBe('y');
    // SKILL.md wins over a case variant beside it
    expect(codes(one({ 'd/SKILL.md': skillMd('name: d\ndescription: y'), 'd/skill.md': 'notes' }))).toEqual([]);
  });

  it('a missing frontmatter does not hide a malformed tools.json', () => {
    const m = one({ 'x/SKILL.md': 'Just text', 'x/tools.json': '[{"name": 1}' });
    expect(codes(m)).toEqual(['frontmatter/missing', 'tools/invalid-json']);
  });

  it('invalid YAML does not hide the name and description checks on the rest', () => {
    const m = one({ 'x/SKILL.md': '---\nname: Bad_Name\nlicense: [unclosed\n---\nBody\n' });
    expect(codes(m).sort()).toEqual(['skill/description-missing', 'skill/name-invalid', 'yaml/invalid']);
  });

  it('a missing name defaults to the folder name, with a warning', () => {
    const m = one({ 'pdf-tools/SKILL.md': skillMd('description: Reads PDFs') });
    expect(m.name).toBe('pdf-tools');
    expect(m.diagnostics).toEqual([expect.objectContaining({ severity: 'warning', code: 'skill/name-missing', message: 'frontmatter has no name; the folder name "pdf-tools" is used (as Claude Code does)' })]);
    // a folder name that is not a valid skill name is normalised, and the warning says so
    const upper = one({ 'Foo/SKILL.md': skillMd('description: Reads PDFs') });
    expect(upper.name).toBe('foo');
    expect(find(upper, 'skill/name-missing')?.message).toBe('frontmatter has no name; the folder name "Foo", normalised to "foo", is used (as Claude Code does)');
    const file = one({ 'My Notes.skill.md': skillMd('description: Notes') });
    expect(file.name).toBe('my-notes');
    expect(find(file, 'skill/name-missing')?.message).toBe('frontmatter has no name; the file name "My Notes", normalised to "my-notes", is used (as Claude Code does)');
  });

  it('bash .sh tools under .ai/tools are read', () => {
    const sh = '#!/usr/bin/env bash\n# Count lines in a file\n# __version__ = "1.0.0"\n# __category__ = "text"\n# __executor_id__ = "rye/core/primitives/subprocess"\nwc -l "$1"\n';
    const m = one({ 'p/.ai/tools/text/count-lines.sh': sh });
    expect(codes(m)).toEqual([]);
    expect(m.tools).toEqual([expect.objectContaining({ name: 'count-lines', description: 'Count lines in a file', handler: { kind: 'bash', ref: '.ai/tools/text/count-lines.sh' }, executor: 'rye/core/primitives/subprocess' })]);
    const bare = one({ 'p/.ai/tools/text/x.sh': 'echo hi\n' });
    expect(codes(bare)).toEqual(['rye/shell-metadata-missing']);
    expect(bare.tools[0].handler.kind).toBe('bash');
  });

  it('an MCP tool list (inputSchema) is read as one, with its schemas', () => {
    const list = { tools: [{ name: 'get_weather', title: 'Weather', description: 'Current weather', inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }, { name: 'ping.v2', description: 'Ping', inputSchema: { type: 'object' } }] };
    const m = one({ 'weather/tools.json': JSON.stringify(list) });
    expect(m.diagnostics).toEqual([]);
    expect(m.metadata).toEqual({ toolsFormat: 'mcp' });
    expect(m.tools.map((t) => [t.name, t.sourceName, t.handler.kind])).toEqual([
      ['get-weather', 'get_weather', 'mcp'],
      ['ping-v2', 'ping.v2', 'mcp'],
    ]);
    expect(m.tools[0].params).toMatchObject({ required: ['city'] });
    const bare = one({ 'w/tools.json': JSON.stringify(list.tools) });
    expect(bare.tools[0].params).toMatchObject({ properties: { city: { type: 'string' } } });
  });

  it('the current Rye dialect: ryeos:signed: lines and config_schema are read', () => {
    const yaml = 'tool_id: a\ntool_type: yaml\nversion: 1.0.0\nexecutor_id: x\ncategory: c\ndescription: d\nconfig_schema:\n  type: object\n  properties:\n    q: { type: string }\n';
    const sig = `# ryeos:signed:2026-08-01T00:00:00Z:${'a'.repeat(64)}:${'Ab+/'.repeat(21)}AA==:${'b'.repeat(64)}\n`;
    const m = one({ 'p/.ai/tools/c/a.yaml': sig + yaml });
    expect(m.tools[0].params).toMatchObject({ properties: { q: { type: 'string' } } });
    expect(m.signature).toMatchObject({ verified: null, keyId: 'b'.repeat(64) });
    expect(m.diagnostics).toEqual([expect.objectContaining({ severity: 'warning', code: 'signature/dialect-unverified', line: 1 })]);
    const py = one({ 'p/.ai/tools/u/t.py': ryePy('u', 'config_schema = {"type": "object", "properties": {"n": {"type": "integer"}}}') });
    expect(py.tools[0].params).toMatchObject({ properties: { n: { type: 'integer' } } });
  });

  it('the manifest says where each skill came from', async () => {
    const r = read({ 'skills/a/SKILL.md': skillMd('name: a\ndescription: y'), 'skills/one.skill.md': skillMd('name: one\ndescription: y') });
    expect(r.skills.map((s) => s.source)).toEqual(['skills/a', 'skills/one.skill.md']);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'skillyard-src-'));
    try {
      mkdirSync(path.join(dir, 'nested/pdf'), { recursive: true });
      writeFileSync(path.join(dir, 'nested/pdf/SKILL.md'), skillMd('name: pdf\ndescription: y'));
      const disk = await readSkillsFromPath(dir);
      expect(disk.skills[0].source).toBe(path.join(dir, 'nested/pdf'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

afterAll(() => undefined);
