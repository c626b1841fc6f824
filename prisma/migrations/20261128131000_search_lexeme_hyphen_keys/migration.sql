-- Lexemes with a hyphen before a dot or the like ("fetch-api.example.com") get a key of
-- their own, up to that character ("fetch-api."), instead of sharing "fetch-" with the
-- hyphenated words ("fetch-weather-2n9k"): lib/registry/expand-prefixes.ts drops a
-- hyphenated word's key when its first part's lexeme is a term already, which is right
-- only when every lexeme under that key is a hyphenated word (indexed with its parts).
INSERT INTO "SearchLexeme" ("key")
SELECT DISTINCT substring(l FROM '^[a-z0-9-]*[^a-z0-9-]')
FROM (
  SELECT l FROM "SkillSearch", unnest(tsvector_to_array("textVector")) AS l WHERE l LIKE '%-%'
  UNION ALL
  SELECT l FROM "SkillSearchBody", unnest(tsvector_to_array("bodyVector")) AS l WHERE l LIKE '%-%'
) lexemes
WHERE l ~ '^[a-z0-9]+-' AND l !~ '^[a-z0-9]+(-[a-z0-9]+)+$' AND l ~ '[^a-z0-9-]'
ON CONFLICT DO NOTHING;
