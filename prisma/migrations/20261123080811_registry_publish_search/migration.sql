-- pg_trgm for typo-tolerant search (shipped with Postgres contrib, and with embedded-postgres)
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- AlterTable
ALTER TABLE "Skill" ADD COLUMN     "publishedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN     "searchVector" tsvector,
ADD COLUMN     "signed" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "stars" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "tokenGated" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "toolCount" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "SkillVersion" ADD COLUMN     "changelog" TEXT,
ADD COLUMN     "deprecated" TEXT,
ADD COLUMN     "downloads" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "integrity" TEXT,
ADD COLUMN     "tarball" BYTEA;

-- CreateTable
CREATE TABLE "UsedVersionNumber" (
    "scopeName" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "UsedVersionNumber_pkey" PRIMARY KEY ("scopeName","name","version")
);

-- CreateTable
CREATE TABLE "DistTag" (
    "skillId" TEXT NOT NULL,
    "tag" TEXT NOT NULL,
    "versionId" TEXT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "DistTag_pkey" PRIMARY KEY ("skillId","tag")
);

-- CreateTable
CREATE TABLE "Star" (
    "userId" TEXT NOT NULL,
    "skillId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Star_pkey" PRIMARY KEY ("userId","skillId")
);

-- CreateTable
CREATE TABLE "SearchWord" (
    "word" TEXT NOT NULL,

    CONSTRAINT "SearchWord_pkey" PRIMARY KEY ("word")
);

-- CreateIndex
CREATE INDEX "DistTag_versionId_idx" ON "DistTag"("versionId");

-- CreateIndex
CREATE INDEX "Star_skillId_idx" ON "Star"("skillId");

-- CreateIndex
CREATE INDEX "SearchWord_word_trgm_idx" ON "SearchWord" USING GIN ("word" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "Skill_searchVector_idx" ON "Skill" USING GIN ("searchVector");

-- CreateIndex
CREATE INDEX "Skill_name_trgm_idx" ON "Skill" USING GIN ("name" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "Skill_tags_idx" ON "Skill" USING GIN ("tags");

-- CreateIndex
CREATE INDEX "Skill_downloads_idx" ON "Skill"("downloads");

-- CreateIndex
CREATE INDEX "Skill_publishedAt_idx" ON "Skill"("publishedAt");

-- CreateIndex
CREATE INDEX "Skill_stars_idx" ON "Skill"("stars");

-- AddForeignKey
ALTER TABLE "DistTag" ADD CONSTRAINT "DistTag_skillId_fkey" FOREIGN KEY ("skillId") REFERENCES "Skill"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DistTag" ADD CONSTRAINT "DistTag_versionId_fkey" FOREIGN KEY ("versionId") REFERENCES "SkillVersion"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Star" ADD CONSTRAINT "Star_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Star" ADD CONSTRAINT "Star_skillId_fkey" FOREIGN KEY ("skillId") REFERENCES "Skill"("id") ON DELETE CASCADE ON UPDATE CASCADE;
