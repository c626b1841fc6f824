-- AlterTable
ALTER TABLE "KvEntry" ADD COLUMN     "bytes" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "KvEntry_callerId_idx" ON "KvEntry"("callerId");

-- Existing rows were keyed by the bare skill name. Rename each to the full @scope/name
-- when exactly one registry skill has that name; rows of a name that several scopes share
-- cannot be attributed and stay under the bare name, which no skill reads any more.
UPDATE "KvEntry" AS k
SET "skill" = '@' || s."scopeName" || '/' || s."name"
FROM "Skill" AS s
WHERE k."skill" NOT LIKE '@%'
  AND s."name" = k."skill"
  AND (SELECT count(*) FROM "Skill" AS s2 WHERE s2."name" = k."skill") = 1;

-- Sizes for the quotas.
UPDATE "KvEntry" SET "bytes" = octet_length("value"::text);
