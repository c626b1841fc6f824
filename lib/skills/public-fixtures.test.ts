import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSkillsFromPath } from './read-path';

// Real SKILL.md folders from anthropics/skills (see fixtures/public/ATTRIBUTION.md).
describe('public Agent Skills', () => {
  it('validate cleanly: `license` at top level is an Agent Skills field, not a warning', async () => {
    const r = await readSkillsFromPath(path.join(__dirname, 'fixtures/public'));
    expect(r.diagnostics).toEqual([]);
    expect(r.skills.map((s) => [s.name, s.format, s.tools.length])).toEqual([
      ['brand-guidelines', 'agent-skill', 0],
      ['internal-comms', 'agent-skill', 0],
      ['webapp-testing', 'agent-skill', 0],
    ]);
    for (const s of r.skills) {
      expect(s.diagnostics, s.name).toEqual([]);
      expect(s.metadata).toEqual({ license: expect.any(String) });
      expect(s.instructions!.length).toBeGreaterThan(300);
      expect(s.description.length).toBeGreaterThan(40);
    }
    expect(r.skills[1].description).toMatch(/^一组帮助撰写/);
  });
});
