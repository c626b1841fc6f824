// Issue 23 item 7: a version stored before the tools-per-skill limit (13,000 tools) is read a
// page of tools at a time, sliced in Postgres; a skill within the limit is read whole.
import { beforeAll, describe, expect, it } from 'vitest';
import { testDb } from '../../test/db';
import { getSkill } from './get-skill';
import { publishVersion } from './publish-version';
import { readUpload } from './read-upload';

const enc = new TextEncoder();
const scope = `pages${Date.now().toString(36)}`;

async function publish(name: string, tools: number) {
  const toolsJson = JSON.stringify(Array.from({ length: tools }, (_, i) => ({ name: `tool_${i + 1}`, description: 'One of many.' })));
  const pkg = readUpload({
    kind: 'files',
    files: [
      { path: `${name}/SKILL.md`, content: enc.encode(`---\nname: ${name}\ndescription: Paged tools.\n---\n\nHi.\n`) },
      { path: `${name}/tools.json`, content: enc.encode(toolsJson) },
    ],
  });
  if (!pkg.manifest) throw new Error(JSON.stringify(pkg.diagnostics));
  const user = await testDb().user.findUniqueOrThrow({ where: { handle: scope } });
  await publishVersion(testDb(), { scope, manifest: pkg.manifest, files: pkg.files, version: '1.0.0', publishedById: user.id });
}

beforeAll(async () => {
  const u = await testDb().user.create({ data: { handle: scope, name: scope } });
  await testDb().scope.create({ data: { name: scope, kind: 'user', userId: u.id } });
  await publish('few', 3);
  await publish('crowded', 1);
  // 300 tools, as a version stored before a limit of 256 held them
  await testDb().$executeRaw`
    UPDATE "SkillVersion" v SET manifest = jsonb_set(v.manifest::jsonb, '{tools}',
      (SELECT jsonb_agg(jsonb_set(v.manifest::jsonb #> '{tools,0}', '{name}', to_jsonb('tool_' || i)) ORDER BY i) FROM generate_series(1, 300) i))
    FROM "Skill" s WHERE s.id = v."skillId" AND s."scopeName" = ${scope} AND s.name = 'crowded'`;
});

const page = (offset: number) => ({ toolsPage: { offset, limit: 50, maxTools: 256 } });

describe('a skill page reads a page of tools of a version with too many', () => {
  it('reads only the page asked for, and says how many tools there are', async () => {
    const skill = await getSkill(testDb(), { scope, name: 'crowded' }, null, page(100));
    expect(skill.toolCount).toBe(300);
    expect(skill.toolsFrom).toBe(100);
    expect(skill.manifest.tools.map((t) => t.name)).toEqual(Array.from({ length: 50 }, (_, i) => `tool_${101 + i}`));
    expect(skill.manifest.files.length).toBeGreaterThan(0); // the rest of the manifest is whole
  });

  it('a page past the end reads the last page', async () => {
    const skill = await getSkill(testDb(), { scope, name: 'crowded' }, null, page(10_000));
    expect(skill.toolsFrom).toBe(250);
    expect(skill.manifest.tools.map((t) => t.name).at(-1)).toBe('tool_300');
    expect(skill.manifest.tools).toHaveLength(50);
  });

  it('a skill within the limit is read whole, and without a page every tool is read', async () => {
    const few = await getSkill(testDb(), { scope, name: 'few' }, null, page(50));
    expect(few.manifest.tools).toHaveLength(3);
    expect(few).toMatchObject({ toolCount: 3, toolsFrom: 0 });
    const all = await getSkill(testDb(), { scope, name: 'crowded' });
    expect(all.manifest.tools).toHaveLength(300);
    expect(all).toMatchObject({ toolCount: 300, toolsFrom: 0 });
  });
});
