// Keeps a skill's search row ("SkillSearch") in step with its latest version: the
// name document (name and tool names, A), the text document (those plus description,
// tags and tool descriptions, B), the instructions' document (C, matched but not
// ranked; "SkillSearchBody"), the keys of their lexemes ("SearchLexeme"), and on "Skill"
// the tool count, token gate and signature flags. Called in the same transaction as
// whatever changed the latest version; a skill without one has no search row.
// Downloads, stars, visibility and the like reach the row through the
// "SkillSearch_copy" trigger on "Skill".
import 'server-only';
import { type Db, Prisma } from '../db';
import { forgetVocabulary } from './search-vocabulary';

type Tx = Prisma.TransactionClient | Db;

export async function refreshSkillSearch(tx: Tx, skillId: string): Promise<void> {
  await refresh(tx, Prisma.sql`s.id = ${skillId}`);
  await tx.$executeRaw`UPDATE "Skill" SET "toolCount" = 0 WHERE id = ${skillId} AND "latestVersionId" IS NULL`;
  await tx.$executeRaw`DELETE FROM "SkillSearch" ss USING "Skill" s WHERE ss."skillId" = ${skillId} AND s.id = ss."skillId" AND s."latestVersionId" IS NULL`;
}

/**
 * Rebuilds every skill's documents (a reindex; the search benchmark's bulk load), `batch`
 * skills a statement so a large registry never holds all its documents at once, and the
 * typo-correction vocabulary unless `words` is false (a bulk load that recorded the
 * words itself: splitting every text with a regular expression is most of the cost).
 */
export async function refreshAllSkillSearch(db: Db, opts: { batch?: number; words?: boolean; progress?: (done: number) => void } = {}): Promise<void> {
  const { batch = 50_000, words = true, progress } = opts;
  let after = '';
  for (let done = 0; ;) {
    const ids = (await db.$queryRaw<Array<{ id: string }>>`SELECT id FROM "Skill" WHERE id > ${after} ORDER BY id LIMIT ${batch}`).map((r) => r.id);
    if (ids.length === 0) break;
    const which = Prisma.sql`s.id = ANY(${ids}::text[])`;
    await refresh(db, which);
    if (words)
      await db.$executeRaw`INSERT INTO "SearchWord" (word)
      SELECT DISTINCT w FROM (
        SELECT regexp_split_to_table(lower(s.name || ' ' || s.description || ' ' || array_to_string(s.tags, ' ')), '[^a-z0-9]+') AS w FROM "Skill" s
        WHERE s.visibility = 'public' AND ${which}
        UNION ALL
        SELECT regexp_split_to_table(lower(t.name || ' ' || t.description), '[^a-z0-9]+')
        FROM "Tool" t JOIN "Skill" s ON s."latestVersionId" = t."versionId" WHERE s.visibility = 'public' AND ${which}
        UNION ALL
        SELECT regexp_split_to_table(lower(left(coalesce(v.manifest->>'instructions', ''), 20000)), '[^a-z0-9]+')
        FROM "Skill" s JOIN "SkillVersion" v ON v.id = s."latestVersionId" WHERE s.visibility = 'public' AND ${which}
      ) words
      WHERE w ~ '^[a-z]{3,32}$'
      ON CONFLICT DO NOTHING`;
    after = ids[ids.length - 1];
    progress?.((done += ids.length));
  }
  await db.$executeRaw`DELETE FROM "SkillSearch" ss USING "Skill" s WHERE s.id = ss."skillId" AND s."latestVersionId" IS NULL`;
  forgetVocabulary();
}

async function refresh(tx: Tx, which: Prisma.Sql): Promise<void> {
  // the facets on "Skill" first: the upsert below copies them
  await tx.$executeRaw`
    UPDATE "Skill" s SET
      "toolCount" = t.count,
      "tokenGated" = t.gated,
      "signed" = (jsonb_typeof(v.manifest->'signature') = 'object' AND coalesce(v.manifest->'signature'->>'verified', '') <> 'false')
    FROM "SkillVersion" v,
      LATERAL (SELECT count(*)::int AS count, coalesce(bool_or("tokenGated"), false) AS gated FROM "Tool" WHERE "versionId" = v.id) t
    WHERE ${which} AND v.id = s."latestVersionId"
      AND (s."toolCount", s."tokenGated", s.signed) IS DISTINCT FROM (t.count, t.gated,
        (jsonb_typeof(v.manifest->'signature') = 'object' AND coalesce(v.manifest->'signature'->>'verified', '') <> 'false'))`;
  const documents = Prisma.sql`
    SELECT s.*, d.*
    FROM "Skill" s
    JOIN "SkillVersion" v ON v.id = s."latestVersionId"
    CROSS JOIN LATERAL (
      SELECT string_agg(name || ' ' || replace(name, '-', ' '), ' ') AS names, string_agg(left(description, 2000), ' ') AS descriptions
      FROM "Tool" WHERE "versionId" = v.id
    ) t
    CROSS JOIN LATERAL (
      SELECT setweight(to_tsvector('english', s.name || ' ' || replace(s.name, '-', ' ')), 'A')
               || setweight(to_tsvector('english', coalesce(t.names, '')), 'A') AS "nameDoc",
             setweight(to_tsvector('english', s.description || ' ' || array_to_string(s.tags, ' ') || ' ' || coalesce(t.descriptions, '')), 'B') AS "textDoc",
             setweight(to_tsvector('english', left(coalesce(v.manifest->>'instructions', ''), 100000)), 'C') AS "bodyDoc"
    ) d
    WHERE ${which}`;
  await tx.$executeRaw`
    WITH doc AS MATERIALIZED (${documents}),
    row AS (
      INSERT INTO "SkillSearch" ("skillId", "scopeName", name, format, visibility, tags, "tokenGated", signed, downloads, stars, "publishedAt",
                                 "nameVector", "textVector")
      SELECT id, "scopeName", name, format, visibility, tags, "tokenGated", signed, downloads, stars, "publishedAt", "nameDoc", "nameDoc" || "textDoc"
      FROM doc
      ON CONFLICT ("skillId") DO UPDATE SET
        "scopeName" = EXCLUDED."scopeName", name = EXCLUDED.name, format = EXCLUDED.format, visibility = EXCLUDED.visibility,
        tags = EXCLUDED.tags, "tokenGated" = EXCLUDED."tokenGated", signed = EXCLUDED.signed, downloads = EXCLUDED.downloads,
        stars = EXCLUDED.stars, "publishedAt" = EXCLUDED."publishedAt", "nameVector" = EXCLUDED."nameVector", "textVector" = EXCLUDED."textVector"
      RETURNING "skillId"
    ),
    -- the lexemes' keys (expand-prefixes.ts), in order so concurrent publishes lock alike
    lexeme AS (
      INSERT INTO "SearchLexeme" (key)
      SELECT DISTINCT CASE WHEN l ~ '^[a-z0-9]+$' THEN l WHEN l ~ '^[a-z0-9]+(-[a-z0-9]+)+$' THEN substring(l FROM '^[a-z0-9]+-')
                           ELSE coalesce(substring(l FROM '^[a-z0-9-]*[^a-z0-9-]'), l) END
      FROM (SELECT DISTINCT unnest(tsvector_to_array(doc."nameDoc" || doc."textDoc" || doc."bodyDoc")) AS l FROM doc) l
      ORDER BY 1
      ON CONFLICT DO NOTHING
    )
    INSERT INTO "SkillSearchBody" ("skillId", "bodyVector")
    SELECT doc.id, doc."bodyDoc" FROM doc JOIN row ON row."skillId" = doc.id
    ON CONFLICT ("skillId") DO UPDATE SET "bodyVector" = EXCLUDED."bodyVector"`;
}

/**
 * Adds the words of a public skill's latest version to the typo-correction vocabulary. Outside
 * the publish transaction (a missing word only weakens typo correction), in sorted order
 * so concurrent publishes take row locks in one order.
 */
export async function recordSearchWords(db: Db, skillId: string): Promise<void> {
  forgetVocabulary();
  await db.$executeRaw`
    INSERT INTO "SearchWord" (word)
    SELECT DISTINCT w FROM (
      SELECT regexp_split_to_table(lower(
        s.name || ' ' || s.description || ' ' || array_to_string(s.tags, ' ') || ' '
        || coalesce((SELECT string_agg(name || ' ' || description, ' ') FROM "Tool" WHERE "versionId" = s."latestVersionId"), '') || ' '
        || left(coalesce(v.manifest->>'instructions', ''), 20000)
      ), '[^a-z0-9]+') AS w
      FROM "Skill" s JOIN "SkillVersion" v ON v.id = s."latestVersionId"
      -- only public skills teach the vocabulary: a suggestion must never reveal a word of
      -- a private or unlisted skill to someone who cannot see it
      WHERE s.id = ${skillId} AND s.visibility = 'public'
    ) words
    WHERE w ~ '^[a-z]{3,32}$'
    ORDER BY w
    ON CONFLICT DO NOTHING`;
  forgetVocabulary();
}
