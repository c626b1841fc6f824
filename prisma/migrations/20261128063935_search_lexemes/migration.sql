-- CreateTable
CREATE TABLE "SearchLexeme" (
    "key" TEXT NOT NULL,

    CONSTRAINT "SearchLexeme_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "SearchLexeme_key_prefix_idx" ON "SearchLexeme" USING SPGIST ("key");

-- The keys of the lexemes already indexed (lib/registry/refresh-skill-search.ts adds new ones).
INSERT INTO "SearchLexeme" ("key")
SELECT DISTINCT CASE WHEN l ~ '^[a-z0-9]+$' THEN l ELSE substring(l FROM '^[a-z0-9]*[^a-z0-9]') END
FROM (
  SELECT unnest(tsvector_to_array("textVector")) AS l FROM "SkillSearch"
  UNION
  SELECT unnest(tsvector_to_array("bodyVector")) FROM "SkillSearchBody"
) lexemes
ON CONFLICT DO NOTHING;
