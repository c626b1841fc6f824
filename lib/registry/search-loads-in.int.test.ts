import { beforeAll, describe, expect, it } from 'vitest';
import { testDb } from '../../test/db';
import { readSkillsFromFiles, type SkillManifest } from '../skills';
import { publishVersion } from './publish-version';
import { searchSkills } from './search-skills';

// Issue 32: "loads in Claude Code" as a search filter, from each version's agent verdicts.
const enc = new TextEncoder();

function pkg(folder: string, file: string, text: string) {
  const files = [{ path: file, content: enc.encode(text) }];
  const { skills } = readSkillsFromFiles(files.map((f) => ({ path: `${folder}/${f.path}`, content: f.content })));
  return { manifest: skills[0] as SkillManifest, files };
}

describe('search: loads in <agent>', () => {
  beforeAll(async () => {
    const db = testDb();
    const user = await db.user.upsert({ where: { handle: 'loadsin' }, create: { handle: 'loadsin', name: 'loadsin' }, update: {} });
    await db.scope.upsert({ where: { name: 'loadsin' }, create: { name: 'loadsin', kind: 'user', userId: user.id }, update: {} });
    // a SKILL.md folder (every agent loads it) and a .skill.md (no agent reads that format)
    const folder = pkg('zebra-notes', 'SKILL.md', '---\nname: zebra-notes\ndescription: Takes zebra notes.\n---\n\nTake notes.\n');
    const single = pkg('zebra-tool', 'zebra-tool.skill.md', '---\nname: zebra-tool\ndescription: A zebra tool.\n---\n\nAnswer about zebras.\n');
    for (const p of [folder, single]) await publishVersion(db, { scope: 'loadsin', manifest: p.manifest, files: p.files, version: '1.0.0' });
  });

  it('keeps only the skills the agent loads', async () => {
    const names = async (q: Parameters<typeof searchSkills>[1]) => (await searchSkills(testDb(), q)).hits.map((s) => s.name).sort();
    expect(await names({ scope: 'loadsin' })).toEqual(['zebra-notes', 'zebra-tool']);
    expect(await names({ scope: 'loadsin', loadsIn: 'claude-code' })).toEqual(['zebra-notes']);
    expect(await names({ scope: 'loadsin', loadsIn: 'codex', q: 'zebra' })).toEqual(['zebra-notes']);
  });
});
