-- The typo-correction vocabulary held words of private and unlisted skills too, and a
-- suggestion could show them to anyone. Rebuild it from public skills' latest versions
-- (lib/registry/refresh-skill-search.ts now records only those).
DELETE FROM "SearchWord";

INSERT INTO "SearchWord" (word)
SELECT DISTINCT w FROM (
  SELECT regexp_split_to_table(lower(
    s.name || ' ' || s.description || ' ' || array_to_string(s.tags, ' ') || ' '
    || coalesce((SELECT string_agg(t.name || ' ' || t.description, ' ') FROM "Tool" t WHERE t."versionId" = s."latestVersionId"), '') || ' '
    || left(coalesce(v.manifest->>'instructions', ''), 20000)
  ), '[^a-z0-9]+') AS w
  FROM "Skill" s JOIN "SkillVersion" v ON v.id = s."latestVersionId"
  WHERE s.visibility = 'public'
) words
WHERE w ~ '^[a-z]{3,32}$'
ON CONFLICT DO NOTHING;
