-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "pins" JSONB;

-- CreateTable
CREATE TABLE "RunSkill" (
    "runId" TEXT NOT NULL,
    "skillId" TEXT NOT NULL,
    "versionId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RunSkill_pkey" PRIMARY KEY ("runId","skillId")
);

-- CreateTable
CREATE TABLE "SkillCallDay" (
    "skillId" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "caller" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "calls" INTEGER NOT NULL DEFAULT 0,
    "failed" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "SkillCallDay_pkey" PRIMARY KEY ("skillId","day","caller","source")
);

-- CreateIndex
CREATE INDEX "RunSkill_skillId_createdAt_idx" ON "RunSkill"("skillId", "createdAt");

-- CreateIndex
CREATE INDEX "SkillCallDay_skillId_day_idx" ON "SkillCallDay"("skillId", "day");

-- AddForeignKey
ALTER TABLE "RunSkill" ADD CONSTRAINT "RunSkill_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;
