import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { one, skillMd } from '../test-helpers';
import type { SkillManifest } from '../types';
import { AGENT_TABLES } from './verdicts';

// One case per rule of every agent's table: a skill that breaks it and one that does not.
// Fixtures are written here. A folder `x` holds the skill unless the case says otherwise.
type Files = Record<string, string>;
const ok = (fm = 'name: x\ndescription: Does x', body = 'Do x.'): Files => ({ 'x/SKILL.md': skillMd(fm, body) });
const long = (n: number) => 'a'.repeat(n);

const CASES: Record<string, { breaks: Files; keeps: Files }> = {
  'claude-code/skill-file': { breaks: { 'x/skill.md': skillMd('name: x\ndescription: d') }, keeps: ok() },
  'claude-code/frontmatter-yaml': { breaks: { 'x/SKILL.md': '---\nname: x\ndescription: [unclosed\n---\nbody\n' }, keeps: ok() },
  'claude-code/description': { breaks: { 'x/SKILL.md': '---\nname: x\n---\n' }, keeps: { 'x/SKILL.md': '---\nname: x\n---\n\nThe first paragraph stands in.\n' } },
  'codex/skill-file': { breaks: { 'x/Skill.md': skillMd('name: x\ndescription: d') }, keeps: ok() },
  'codex/frontmatter': { breaks: { 'x/SKILL.md': '# x\n\nNo frontmatter.\n' }, keeps: { 'x/SKILL.md': '---\nname: x\ndescription: d\n  ---\nbody\n' } },
  'codex/yaml': { breaks: ok('description: no name here'), keeps: ok() },
  'codex/name-length': { breaks: { [`${long(65)}/SKILL.md`]: skillMd(`name: ${long(65)}\ndescription: d`) }, keeps: { [`${long(64)}/SKILL.md`]: skillMd(`name: ${long(64)}\ndescription: d`) } },
  'codex/description-length': { breaks: ok(`name: x\ndescription: ${long(1025)}`), keeps: ok(`name: x\ndescription: ${long(1024)}`) },
  'codex/short-description-length': { breaks: ok(`name: x\ndescription: d\nmetadata:\n  short-description: ${long(501)}`), keeps: ok(`name: x\ndescription: d\nmetadata:\n  short-description: ${long(500)}`) },
  'codex/no-symlink-or-hidden': { breaks: { '.x/SKILL.md': skillMd('name: x\ndescription: d') }, keeps: ok() },
  'openclaw/skill-file': { breaks: { 'x/Skill.md': skillMd('name: x\ndescription: d') }, keeps: { 'x/skill.md': skillMd('name: x\ndescription: d') } },
  'openclaw/name-description': { breaks: ok('name: x'), keeps: ok() },
  'openclaw/single-line-keys': { breaks: ok('name: x\ndescription: >-\n  folded over\n  two lines'), keeps: ok() },
  'openclaw/metadata-json': { breaks: ok('name: x\ndescription: d\nmetadata:\n  openclaw:\n    emoji: "x"'), keeps: ok('name: x\ndescription: d\nmetadata: {"openclaw": {"emoji": "x"}}') },
  'cursor/skill-file': { breaks: { 'x/skill.md': skillMd('name: x\ndescription: d') }, keeps: ok() },
  'cursor/frontmatter': { breaks: { 'x/SKILL.md': 'no frontmatter\n' }, keeps: ok() },
  'cursor/name': { breaks: { 'y/SKILL.md': skillMd('name: x\ndescription: d') }, keeps: ok() },
  'cursor/description': { breaks: ok('name: x\ndescription: ""'), keeps: ok() },
  'copilot/skill-file': { breaks: { 'x/SKILL.MD': skillMd('name: x\ndescription: d') }, keeps: ok() },
  'copilot/frontmatter': { breaks: { 'x/SKILL.md': '---\nname: x\ndescription: d\n' }, keeps: ok() },
  'copilot/name': { breaks: ok('name: X_Tool\ndescription: d'), keeps: ok() },
  'copilot/description': { breaks: ok(`name: x\ndescription: ${long(1025)}`), keeps: ok() },
};

const reasonsOf = (m: SkillManifest, rule: string) => m.agents!.flatMap((v) => v.reasons).filter((r) => r.rule === rule);

describe('agent loader rules', () => {
  it('every rule of every table has a case here, and cites a document', () => {
    const ids = AGENT_TABLES.flatMap((t) => t.rules.map((r) => r.id));
    expect(ids.sort()).toEqual(Object.keys(CASES).sort());
    for (const t of AGENT_TABLES) for (const r of t.rules) expect(r.doc, r.id).toMatch(/https:\/\/|openai\/codex/);
    const doc = readFileSync(path.join(__dirname, '../../../docs/formats.md'), 'utf8');
    for (const id of ids) expect(doc, id).toContain(`| \`${id}\` |`);
  });

  for (const [id, c] of Object.entries(CASES)) {
    it(`${id}: broken is reported, kept is not`, () => {
      const broken = reasonsOf(one(c.breaks), id);
      expect(broken, 'breaks').toHaveLength(1);
      expect(broken[0].message.length).toBeGreaterThan(5);
      expect(reasonsOf(one(c.keeps), id), 'keeps').toEqual([]);
      const rule = AGENT_TABLES.flatMap((t) => t.rules).find((r) => r.id === id)!;
      const verdict = one(c.breaks).agents!.find((v) => id.startsWith(v.agent + '/'))!;
      if (rule.effect === 'blocks') expect(verdict.loads).toBe(false);
    });
  }

  it('a skill that breaks only the Agent Skills name rules still loads in Claude Code, Codex and OpenClaw', () => {
    const m = one({ 'My Tool/SKILL.md': skillMd('name: my_tool\ndescription: Does things') });
    expect(m.diagnostics.map((d) => d.code)).toEqual(expect.arrayContaining(['skill/name-invalid', 'skill/name-dir-mismatch']));
    expect(Object.fromEntries(m.agents!.map((v) => [v.agent, v.loads]))).toEqual({ 'claude-code': true, codex: true, openclaw: true, cursor: false, copilot: false });
  });

  it('a skill in another format loads in no agent, and says why', () => {
    const m = one({ 'app/tools.json': '[{"name": "t", "description": "d", "capabilities": [], "input_schema": {"type": "object"}, "output_schema": {"type": "object"}}]' });
    expect(m.agents!.map((v) => v.loads)).toEqual([false, false, false, false, false]);
    expect(m.agents![0].reasons[0].message).toContain('malv');
  });
});
