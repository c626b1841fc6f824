import path from 'node:path';
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readSkillsFromPath } from './read-path';
import { loadKeysForTest } from './test-keys';

const SKILLS = path.join(__dirname, '../../skills');

describe('bundled skills (registry seed data)', () => {
  it('are all valid with no warnings, at least two per format, one package per folder', async () => {
    const r = await readSkillsFromPath(SKILLS, { trustedKeys: loadKeysForTest(path.join(SKILLS, '.keys')) });
    expect(r.diagnostics).toEqual([]);
    for (const s of r.skills) expect(s.diagnostics, s.name).toEqual([]);
    const byFormat: Record<string, number> = {};
    for (const s of r.skills) byFormat[s.format] = (byFormat[s.format] ?? 0) + 1;
    for (const f of ['agent-skill', 'skill-md', 'code-skill', 'malv', 'rye']) expect(byFormat[f], f).toBeGreaterThanOrEqual(2);
    const folders = readdirSync(SKILLS, { withFileTypes: true }).filter((d) => d.isDirectory() && !d.name.startsWith('.')).map((d) => d.name).sort();
    expect(r.skills.map((s) => s.name).sort()).toEqual(folders);
  });

  it('include token-gated malv tools and a verified Rye signature', async () => {
    const r = await readSkillsFromPath(SKILLS, { trustedKeys: loadKeysForTest(path.join(SKILLS, '.keys')) });
    const tools = r.skills.flatMap((s) => s.tools);
    expect(tools.find((t) => t.name === 'list-my-repos')?.inputTokens).toEqual({ '@oauth/github': { required: ['account'], allowExpired: [] } });
    expect(tools.find((t) => t.name === 'open-notebook')?.outputTokens).toEqual({ '@skillyard/notebook': { required: ['notebook'] } });
    const rye = r.skills.find((s) => s.name === 'rye-text')!;
    expect(rye.signature?.verified).toBe(true);
    // every JS/TS handler is plain computation: no Node APIs for the isolate
    for (const s of r.skills) for (const t of s.tools) expect(t.handler.kind === 'none', `${s.name}/${t.name}`).toBe(false);
  });
});
