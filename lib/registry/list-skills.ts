// A short listing by name, description or tag (the playground's picker): public skills,
// plus every skill of the scopes the caller may see privately (`viewerScopes`, from
// lib/authz privateScopesOf). Full-text search is lib/registry/search-skills.ts.
import 'server-only';
import type { Db } from '../db';

export type SkillSummary = {
  scope: string;
  name: string;
  description: string;
  format: string;
  version: string | null;
  tags: string[];
  toolCount: number;
  tokenGated: boolean;
  downloads: number;
  updatedAt: Date;
};

export type ListSkillsQuery = { q?: string; format?: string; tag?: string; take?: number; viewerScopes?: string[] };

export async function listSkills(db: Db, query: ListSkillsQuery = {}): Promise<SkillSummary[]> {
  const q = query.q?.trim().slice(0, 100);
  const rows = await db.skill.findMany({
    where: {
      ...(query.viewerScopes?.length
        ? { AND: [{ OR: [{ visibility: 'public' as const }, { scopeName: { in: query.viewerScopes.slice(0, 1_000) } }] }] }
        : { visibility: 'public' as const }),
      latestVersionId: { not: null },
      ...(query.format ? { format: query.format } : {}),
      ...(query.tag ? { tags: { has: query.tag } } : {}),
      ...(q
        ? {
            OR: [{ name: { contains: q, mode: 'insensitive' as const } }, { description: { contains: q, mode: 'insensitive' as const } }, { tags: { has: q.toLowerCase() } }],
          }
        : {}),
    },
    orderBy: [{ downloads: 'desc' }, { name: 'asc' }],
    take: Math.min(query.take ?? 100, 200),
    select: {
      scopeName: true,
      name: true,
      description: true,
      format: true,
      tags: true,
      downloads: true,
      updatedAt: true,
      latestVersion: { select: { version: true, tools: { select: { tokenGated: true } } } },
    },
  });
  const summaries = rows.map((r) => ({
    scope: r.scopeName,
    name: r.name,
    description: r.description,
    format: r.format,
    version: r.latestVersion?.version ?? null,
    tags: r.tags,
    toolCount: r.latestVersion?.tools.length ?? 0,
    tokenGated: r.latestVersion?.tools.some((t) => t.tokenGated) ?? false,
    downloads: r.downloads,
    updatedAt: r.updatedAt,
  }));
  if (!q) return summaries;
  // a name match outranks a description match
  const lower = q.toLowerCase();
  const rank = (s: SkillSummary) => (s.name === lower ? 0 : s.name.includes(lower) ? 1 : 2);
  return summaries.sort((a, b) => rank(a) - rank(b));
}
