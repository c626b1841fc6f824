// Suggestions as you type: the few skills whose name or tool names match every word of
// the query (the last one as a prefix, as it is still being typed), misspelled words
// widened as the full search widens them, the best-named and most downloaded first. One
// index-backed query on the narrow "SkillSearch" rows, for a call per (debounced) keystroke.
import 'server-only';
import type { Db } from '../db/client';
import { Prisma } from '../db/generated/client';
import { buildTsQuery, corrections, queryWords } from './search-skills';

export type Suggestion = { scope: string; name: string; description: string };
export type SuggestResult = { suggestions: Suggestion[]; corrections: Record<string, string[]> };

const LIMIT = 6;

export async function suggestSkills(db: Db, input: { q: string; viewerScopes?: string[]; limit?: number }): Promise<SuggestResult> {
  const words = queryWords(input.q);
  if (words.length === 0 || (words.length === 1 && words[0].length < 2)) return { suggestions: [], corrections: {} };
  const fixes = await corrections(db, words);
  const q = Prisma.sql`to_tsquery('english', ${buildTsQuery(words, fixes)})`;
  const scopes = (input.viewerScopes ?? []).slice(0, 1_000);
  const visible = scopes.length ? Prisma.sql`(s.visibility = 'public' OR s."scopeName" = ANY(${scopes}::text[]))` : Prisma.sql`s.visibility = 'public'`;
  const limit = Math.min(Math.max(Math.trunc(input.limit ?? LIMIT), 1), 10);
  const joined = words.join('-');
  // names that start with what was typed first, then the most downloaded; a name match
  // is read from the name document's index, never the instructions
  const rows = await db.$queryRaw<Array<{ scopeName: string; name: string; description: string }>>`
    SELECT k."scopeName", k.name, left(k.description, 160) AS description
    FROM (
      SELECT s."skillId", starts_with(s.name, ${joined}) AS head, s.downloads
      FROM "SkillSearch" s WHERE s."nameVector" @@ ${q} AND ${visible}
      ORDER BY starts_with(s.name, ${joined}) DESC, s.downloads DESC, s."skillId" LIMIT ${limit}
    ) t JOIN "Skill" k ON k.id = t."skillId"
    ORDER BY t.head DESC, t.downloads DESC, t."skillId"`;
  return { suggestions: rows.map((r) => ({ scope: r.scopeName, name: r.name, description: r.description })), corrections: fixes };
}
