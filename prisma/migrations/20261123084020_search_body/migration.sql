-- AlterTable
ALTER TABLE "Skill" ADD COLUMN     "searchBody" tsvector;

-- CreateIndex
CREATE INDEX "Skill_searchBody_idx" ON "Skill" USING GIN ("searchBody");
