// The playground's skill picker: public skills (and the caller's private ones) matching a query, each with the names of its
// latest version's visible tools (so the form can suggest an allowed-tools spec). Two
// queries whatever the number of skills (it was one per skill).
import 'server-only';
import type { Db } from '../db';
import { listSkills } from './list-skills';
import { addToGroup } from '../skills';

export type PlaygroundSkillOption = { scope: string; name: string; description: string; format: string; tools: string[] };

export async function listPlaygroundSkills(db: Db, query: { q?: string; take: number; viewerScopes?: string[] }): Promise<PlaygroundSkillOption[]> {
  const skills = (await listSkills(db, { q: query.q, take: query.take, viewerScopes: query.viewerScopes })).slice(0, query.take);
  if (skills.length === 0) return [];
  const tools = await db.tool.findMany({
    where: { version: { latestOf: { OR: skills.map((s) => ({ scopeName: s.scope, name: s.name })) } } },
    select: { name: true, manifest: true, version: { select: { skill: { select: { scopeName: true, name: true } } } } },
    orderBy: { name: 'asc' },
  });
  const bySkill = new Map<string, string[]>();
  for (const t of tools) {
    if ((t.manifest as { visibility?: string } | null)?.visibility === 'hidden') continue;
    const key = `${t.version.skill.scopeName}/${t.version.skill.name}`;
    addToGroup(bySkill, key, t.name);
  }
  return skills.map((s) => ({ scope: s.scope, name: s.name, description: s.description, format: s.format, tools: bySkill.get(`${s.scope}/${s.name}`) ?? [] }));
}
