// Keeps a skill's search document and facets in step with its latest version: the
// weighted tsvector (name and tool names A, description, tags and tool descriptions B,
// instructions C), tool count, token gate and signature flags. Called in the same
// transaction as whatever changed the latest version.
import type { Db } from '../db/client';
import type { Prisma } from '../db/generated/client';

type Tx = Prisma.TransactionClient | Db;

export async function refreshSkillSearch(tx: Tx, skillId: string): Promise<void> {
  await tx.$executeRaw`
    UPDATE "Skill" s SET
      "searchVector" =
        setweight(to_tsvector('english', s.name || ' ' || replace(s.name, '-', ' ')), 'A')
        || setweight(to_tsvector('english', coalesce(t.names, '')), 'A')
        || setweight(to_tsvector('english', s.description || ' ' || array_to_string(s.tags, ' ') || ' ' || coalesce(t.descriptions, '')), 'B')
        || setweight(to_tsvector('english', left(coalesce(v.manifest->>'instructions', ''), 100000)), 'C'),
      "toolCount" = t.count,
      "tokenGated" = t.gated,
      "signed" = (jsonb_typeof(v.manifest->'signature') = 'object' AND coalesce(v.manifest->'signature'->>'verified', '') <> 'false')
    FROM "SkillVersion" v,
      LATERAL (
        SELECT count(*)::int AS count,
               coalesce(bool_or("tokenGated"), false) AS gated,
               string_agg(name || ' ' || replace(name, '-', ' '), ' ') AS names,
               string_agg(left(description, 2000), ' ') AS descriptions
        FROM "Tool" WHERE "versionId" = v.id
      ) t
    WHERE s.id = ${skillId} AND v.id = s."latestVersionId"`;
  await tx.$executeRaw`UPDATE "Skill" SET "searchVector" = NULL, "toolCount" = 0 WHERE id = ${skillId} AND "latestVersionId" IS NULL`;
}

/**
 * Adds the words of a skill's latest version to the typo-correction vocabulary. Outside
 * the publish transaction (a missing word only weakens typo correction), in sorted order
 * so concurrent publishes take row locks in one order.
 */
export async function recordSearchWords(db: Db, skillId: string): Promise<void> {
  await db.$executeRaw`
    INSERT INTO "SearchWord" (word)
    SELECT DISTINCT w FROM (
      SELECT regexp_split_to_table(lower(
        s.name || ' ' || s.description || ' ' || array_to_string(s.tags, ' ') || ' '
        || coalesce((SELECT string_agg(name || ' ' || description, ' ') FROM "Tool" WHERE "versionId" = s."latestVersionId"), '') || ' '
        || left(coalesce(v.manifest->>'instructions', ''), 20000)
      ), '[^a-z0-9]+') AS w
      FROM "Skill" s JOIN "SkillVersion" v ON v.id = s."latestVersionId"
      WHERE s.id = ${skillId}
    ) words
    WHERE length(w) BETWEEN 3 AND 32 AND w !~ '^[0-9]+$'
    ORDER BY w
    ON CONFLICT DO NOTHING`;
}
