-- CreateTable
CREATE TABLE "SkillSearch" (
    "skillId" TEXT NOT NULL,
    "scopeName" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "visibility" "Visibility" NOT NULL,
    "tags" TEXT[],
    "tokenGated" BOOLEAN NOT NULL,
    "signed" BOOLEAN NOT NULL,
    "downloads" INTEGER NOT NULL,
    "stars" INTEGER NOT NULL,
    "publishedAt" TIMESTAMP(3) NOT NULL,
    "nameVector" tsvector NOT NULL,
    "textVector" tsvector NOT NULL,

    CONSTRAINT "SkillSearch_pkey" PRIMARY KEY ("skillId")
);

-- CreateTable
CREATE TABLE "SkillSearchBody" (
    "skillId" TEXT NOT NULL,
    "bodyVector" tsvector NOT NULL,

    CONSTRAINT "SkillSearchBody_pkey" PRIMARY KEY ("skillId")
);

-- CreateIndex
CREATE INDEX "SkillSearch_nameVector_idx" ON "SkillSearch" USING GIN ("nameVector");

-- CreateIndex
CREATE INDEX "SkillSearch_textVector_idx" ON "SkillSearch" USING GIN ("textVector");

-- CreateIndex
CREATE INDEX "SkillSearch_tags_idx" ON "SkillSearch" USING GIN ("tags");

-- CreateIndex
CREATE INDEX "SkillSearch_downloads_skillId_idx" ON "SkillSearch"("downloads" DESC, "skillId");

-- CreateIndex
CREATE INDEX "SkillSearch_publishedAt_skillId_idx" ON "SkillSearch"("publishedAt" DESC, "skillId");

-- CreateIndex
CREATE INDEX "SkillSearch_stars_downloads_skillId_idx" ON "SkillSearch"("stars" DESC, "downloads" DESC, "skillId");

-- CreateIndex
CREATE INDEX "SkillSearch_format_downloads_skillId_idx" ON "SkillSearch"("format", "downloads" DESC, "skillId");

-- CreateIndex
CREATE INDEX "SkillSearch_scopeName_idx" ON "SkillSearch"("scopeName");

-- CreateIndex
CREATE INDEX "SkillSearchBody_bodyVector_idx" ON "SkillSearchBody" USING GIN ("bodyVector");

-- AddForeignKey
ALTER TABLE "SkillSearch" ADD CONSTRAINT "SkillSearch_skillId_fkey" FOREIGN KEY ("skillId") REFERENCES "Skill"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SkillSearchBody" ADD CONSTRAINT "SkillSearchBody_skillId_fkey" FOREIGN KEY ("skillId") REFERENCES "SkillSearch"("skillId") ON DELETE CASCADE ON UPDATE CASCADE;

-- The planner has no cost for reading and decompressing a toasted document: with
-- statistics on the instructions' document it expects a scan of the whole table to find
-- the first matches of a common word at once, and reads tens of thousands of documents
-- (0.5 s at 100,000 skills). Without them it assumes few matches and uses the GIN index.
ALTER TABLE "SkillSearchBody" ALTER COLUMN "bodyVector" SET STATISTICS 0;
-- One process per search: parallel workers only add start-up cost to these short reads.
ALTER TABLE "SkillSearch" SET (parallel_workers = 0);
ALTER TABLE "SkillSearchBody" SET (parallel_workers = 0);

-- Copies what search filters and sorts on from "Skill" to its search row (the documents
-- are written by lib/registry/refresh-skill-search.ts), so downloads, stars, visibility
-- and the rest stay in step wherever they change.
CREATE FUNCTION "SkillSearch_copy"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "SkillSearch" SET
    "scopeName" = NEW."scopeName", name = NEW.name, format = NEW.format, visibility = NEW.visibility, tags = NEW.tags,
    "tokenGated" = NEW."tokenGated", signed = NEW.signed, downloads = NEW.downloads, stars = NEW.stars, "publishedAt" = NEW."publishedAt"
  WHERE "skillId" = NEW.id;
  RETURN NULL;
END
$$;

CREATE TRIGGER "SkillSearch_copy" AFTER UPDATE ON "Skill" FOR EACH ROW
  WHEN ((OLD."scopeName", OLD.name, OLD.format, OLD.visibility, OLD.tags, OLD."tokenGated", OLD.signed, OLD.downloads, OLD.stars, OLD."publishedAt")
    IS DISTINCT FROM (NEW."scopeName", NEW.name, NEW.format, NEW.visibility, NEW.tags, NEW."tokenGated", NEW.signed, NEW.downloads, NEW.stars, NEW."publishedAt"))
  EXECUTE FUNCTION "SkillSearch_copy"();

-- The search rows of the skills there are, from the documents "Skill" kept until now
-- (the text and instructions documents as lib/registry/refresh-skill-search.ts writes
-- them; the name document is new)
INSERT INTO "SkillSearch" ("skillId", "scopeName", name, format, visibility, tags, "tokenGated", signed, downloads, stars, "publishedAt",
                           "nameVector", "textVector")
SELECT s.id, s."scopeName", s.name, s.format, s.visibility, s.tags, s."tokenGated", s.signed, s.downloads, s.stars, s."publishedAt",
       setweight(to_tsvector('english', s.name || ' ' || replace(s.name, '-', ' ')), 'A')
         || setweight(to_tsvector('english', coalesce(t.names, '')), 'A'),
       coalesce(s."searchVector", ''::tsvector)
FROM "Skill" s
CROSS JOIN LATERAL (
  SELECT string_agg(name || ' ' || replace(name, '-', ' '), ' ') AS names FROM "Tool" WHERE "versionId" = s."latestVersionId"
) t
WHERE s."latestVersionId" IS NOT NULL;

INSERT INTO "SkillSearchBody" ("skillId", "bodyVector")
SELECT s.id, coalesce(s."searchBody", ''::tsvector) FROM "Skill" s WHERE s."latestVersionId" IS NOT NULL;

-- DropIndex
DROP INDEX "Skill_searchBody_idx";

-- DropIndex
DROP INDEX "Skill_searchVector_idx";

-- AlterTable
ALTER TABLE "Skill" DROP COLUMN "searchBody",
DROP COLUMN "searchVector";
