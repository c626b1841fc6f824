// Suggestions as you type: the few skills whose name or tool names match every word of
// the query (the last one as a prefix, as it is still being typed), misspelled words
// widened as the full search widens them, the best-named and most downloaded first. One
// index-backed query on the narrow "SkillSearch" rows, for a call per (debounced) keystroke.
import 'server-only';
import { type Db, Prisma } from '../db';
import { buildTsQuery, corrections, queryWords } from './search-skills';
import { expandPrefixes } from './expand-prefixes';

export type Suggestion = { scope: string; name: string; description: string };
export type SuggestResult = { suggestions: Suggestion[]; corrections: Record<string, string[]> };

const LIMIT = 6;
/** rows of the downloads index walked before the name index decides (see below) */
const WALK = 400;
/** matches of the walk ranked for the answer */
const POOL = 60;

export async function suggestSkills(db: Db, input: { q: string; viewerScopes?: string[]; limit?: number }): Promise<SuggestResult> {
  const words = queryWords(input.q);
  if (words.length === 0 || (words.length === 1 && words[0].length < 2)) return { suggestions: [], corrections: {} };
  const fixes = await corrections(db, words);
  const q = Prisma.sql`${await expandPrefixes(db, buildTsQuery(words, fixes))}::tsquery`;
  const scopes = (input.viewerScopes ?? []).slice(0, 1_000);
  const visible = scopes.length ? Prisma.sql`(s.visibility = 'public' OR s."scopeName" = ANY(${scopes}::text[]))` : Prisma.sql`s.visibility = 'public'`;
  const limit = Math.min(Math.max(Math.trunc(input.limit ?? LIMIT), 1), 10);
  const joined = words.join('-');
  // The most downloaded matches: a walk down the downloads index that stops at WALK rows
  // (about 20 matches of a word one skill in twenty has) finds them for a common word or a
  // short prefix (thousands of matches, too many to sort per keystroke); a rarer query,
  // with fewer matches than that walk found, reads its matches from the name document's
  // index instead. An exact name always comes first.
  const rows = await db.$queryRaw<Array<{ scopeName: string; name: string; description: string }>>`
    WITH walk AS MATERIALIZED (
      SELECT w."skillId", w.name, w.downloads FROM (
        SELECT s."skillId", s.name, s.downloads, s."nameVector" FROM "SkillSearch" s WHERE ${visible}
        ORDER BY s.downloads DESC, s."skillId" LIMIT ${WALK}) w
      WHERE w."nameVector" @@ ${q} LIMIT ${POOL}),
    pool AS (
      SELECT * FROM walk WHERE (SELECT count(*) FROM walk) >= ${limit}
      UNION ALL
      SELECT s."skillId", s.name, s.downloads FROM "SkillSearch" s
        WHERE (SELECT count(*) FROM walk) < ${limit} AND s."nameVector" @@ ${q} AND ${visible}
      UNION ALL
      SELECT k.id, k.name, k.downloads FROM "Skill" k JOIN "SkillSearch" s ON s."skillId" = k.id
        WHERE k.name = ${joined} AND ${visible}),
    top AS (
      SELECT DISTINCT ON ("skillId") "skillId", name = ${joined} AS exact, starts_with(name, ${joined}) AS head, downloads FROM pool)
    SELECT k."scopeName", k.name, left(k.description, 160) AS description
    FROM (SELECT * FROM top ORDER BY exact DESC, head DESC, downloads DESC, "skillId" LIMIT ${limit}) t
    JOIN "Skill" k ON k.id = t."skillId"
    ORDER BY t.exact DESC, t.head DESC, t.downloads DESC, t."skillId"`;
  return { suggestions: rows.map((r) => ({ scope: r.scopeName, name: r.name, description: r.description })), corrections: fixes };
}
