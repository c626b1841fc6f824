import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readSkillsFromPath } from './read-path';
import { codes, find, one, read, skillMd } from './test-helpers';

// Issue 32: what Claude Code, Codex or the format's own reader accept is not an error here,
// and what was dropped silently is said. Every fixture is written for this test.
describe('false alarms', () => {
  it('a name in lowercase letters of any script is valid, as the Agent Skills reference validator allows', () => {
    expect(codes(one({ 'análise-rápida/SKILL.md': skillMd('name: análise-rápida\ndescription: Analisa dados') }))).toEqual([]);
    expect(codes(one({ '数据分析/SKILL.md': skillMd('name: 数据分析\ndescription: 分析数据') }))).toEqual([]);
    expect(codes(one({ 'Daten/SKILL.md': skillMd('name: Daten\ndescription: x') }))).toContain('skill/name-invalid');
  });

  it('an indented closing --- is read, with a warning (Codex trims lines)', () => {
    const m = one({ 'x/SKILL.md': '---\nname: x\ndescription: Does x\n  ---\n\nBody here.\n' });
    expect(m.description).toBe('Does x');
    expect(m.instructions).toBe('Body here.\n');
    expect(m.diagnostics.map((d) => [d.severity, d.code, d.line])).toEqual([['warning', 'frontmatter/fence-indented', 4]]);
  });

  it('a SKILL.md without frontmatter inside another skill is a file of that skill, not an error', () => {
    const r = read({
      'outer/SKILL.md': skillMd('name: outer\ndescription: Scaffolds skills'),
      'outer/templates/new-skill/SKILL.md': '# {{name}}\n\nDescribe the skill here.\n',
    });
    expect(r.skills.map((s) => s.name)).toEqual(['outer']);
    expect(r.skills[0].files).toContain('templates/new-skill/SKILL.md');
    expect(r.skills[0].diagnostics.map((d) => [d.severity, d.code])).toEqual([['note', 'skill/fragment']]);
    // one with frontmatter is a nested skill of its own; one alone is still an error
    expect(read({ 'outer/SKILL.md': skillMd('name: outer\ndescription: d'), 'outer/inner/SKILL.md': skillMd('name: inner\ndescription: d') }).skills.map((s) => s.name)).toEqual(['outer', 'inner']);
    expect(codes(one({ 'alone/SKILL.md': '# no frontmatter\n' }))).toContain('frontmatter/missing');
  });

  it('an OpenAI tools.json beside a SKILL.md is left alone with a note', () => {
    const openai = JSON.stringify({ tools: [{ type: 'function', function: { name: 'getWeather', description: 'w', parameters: { type: 'object' } } }] });
    const m = one({ 'w/SKILL.md': skillMd('name: w\ndescription: Weather'), 'w/tools.json': openai });
    expect(m.tools).toEqual([]);
    expect(m.diagnostics.map((d) => [d.severity, d.code])).toEqual([['note', 'tools/not-skill-tools']]);
    expect(find(m, 'tools/not-skill-tools')!.message).toContain('OpenAI');
    // a malv app's tools.json (no SKILL.md) must still be an array
    expect(codes(one({ 'app/tools.json': '{"name": "x"}' }))).toContain('tools/not-array');
  });
});

describe('silences', () => {
  it('non-ASCII tags are kept, normalised; distinct tags stay distinct; an empty one is said', () => {
    const m = one({ 'x/SKILL.md': skillMd('name: x\ndescription: d\nmetadata:\n  tags: [Données, 数据分析, "C++", "C#", "!!!"]') });
    expect(m.metadata.tags).toEqual(['données', '数据分析', 'c++', 'c#']);
    expect(codes(m)).toEqual(['metadata/tag-dropped']);
  });

  it('a YAML key that is a list gets a diagnostic, and Node prints nothing to stderr', () => {
    const m = one({ 'x/SKILL.md': skillMd('name: x\ndescription: d\n? [a, b]\n: both') });
    expect(find(m, 'yaml/key-not-scalar')).toMatchObject({ severity: 'warning', line: 4 });
    // the yaml package warns through process.emitWarning unless told not to: check in a child
    const dir = mkdtempSync(path.join(os.tmpdir(), 'skillyard-yamlkey-'));
    try {
      writeFileSync(path.join(dir, 'SKILL.md'), skillMd('name: x\ndescription: d\n? [a, b]\n: both'));
      const script = `import('${path.resolve(__dirname, 'read-path.ts')}').then(async (m) => { const r = await m.readSkillsFromPath(${JSON.stringify(dir)}); process.stdout.write(r.skills[0].diagnostics.map((d) => d.code).join(',')); })`;
      const tsx = path.resolve(__dirname, '../../node_modules/.bin/tsx');
      const out = spawnSync(tsx, ['-e', script], { encoding: 'utf8' });
      expect(out.stdout).toContain('yaml/key-not-scalar');
      expect(out.stderr).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('spec conformance', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'skillyard-conform-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a .skill.md validated as a single file keeps its folder as its package', async () => {
    const d = path.join(dir, 'single');
    mkdirSync(path.join(d, 'lib'), { recursive: true });
    writeFileSync(path.join(d, 'greet.skill.md'), skillMd('name: greet\ndescription: Greets\nmetadata:\n  delegate: ./lib/greet.js'));
    writeFileSync(path.join(d, 'lib/greet.js'), 'export default async () => "hi";\n');
    writeFileSync(path.join(d, 'other.skill.md'), skillMd('name: other\ndescription: Not asked for'));
    const r = await readSkillsFromPath(path.join(d, 'greet.skill.md'));
    expect(r.skills.map((s) => [s.name, s.source])).toEqual([['greet', path.join(d, 'greet.skill.md')]]);
    expect(codes(r.skills[0])).toEqual([]);
    expect(r.skills[0].tools[0].handler).toEqual({ kind: 'js', ref: 'lib/greet.js' });
  });

  it('a .ai/ folder at the root does not swallow the skills beside it', () => {
    const r = read({
      '.ai/tools/text/count.yaml': 'tool_id: count\ntool_type: yaml\nversion: "1.0.0"\nexecutor_id: rye/core/runtimes/python/script\ncategory: text\ndescription: Count\n',
      'README.md': '# repo\n',
      'skills/pdf/SKILL.md': skillMd('name: pdf\ndescription: PDFs'),
      'prompts/review.skill.md': skillMd('name: review\ndescription: Reviews'),
      'apps/weather/tools.json': '[{"name": "get_weather", "description": "w", "capabilities": [], "input_schema": {"type": "object"}, "output_schema": {"type": "object"}}]',
    }, { rootName: 'repo' });
    expect(r.skills.map((s) => [s.format, s.name]).sort()).toEqual([['agent-skill', 'pdf'], ['malv', 'weather'], ['rye', 'repo'], ['skill-md', 'review']]);
  });

  it('a Skill Tools tool name must match ^[a-z][a-z0-9_]*$; an MCP tool list keeps its rules', () => {
    const skill = (tools: string) => one({ 's/SKILL.md': skillMd('name: s\ndescription: d'), 's/tools.json': tools });
    expect(codes(skill('[{"name": "getWeather", "description": "w"}]'))).toEqual(['tool/name-not-skill-tools']);
    expect(codes(skill('[{"name": "get_weather", "description": "w"}]'))).toEqual([]);
    expect(codes(skill('[{"name": "getWeather", "description": "w", "inputSchema": {"type": "object"}}]'))).toEqual([]);
    expect(codes(one({ 'app/tools.json': '[{"name": "getWeather", "description": "w", "capabilities": [], "input_schema": {"type": "object"}, "output_schema": {"type": "object"}}]' }))).toContain('tool/name-not-snake-case');
  });
});
