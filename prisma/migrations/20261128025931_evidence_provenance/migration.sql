-- CreateTable
CREATE TABLE "VersionEvidence" (
    "versionId" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lockedBy" TEXT,
    "lockedAt" TIMESTAMP(3),
    "queuedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),
    "evidence" JSONB,
    "error" TEXT,

    CONSTRAINT "VersionEvidence_pkey" PRIMARY KEY ("versionId")
);

-- CreateTable
CREATE TABLE "VersionProvenance" (
    "versionId" TEXT NOT NULL,
    "issuer" TEXT NOT NULL,
    "repository" TEXT NOT NULL,
    "commit" TEXT NOT NULL,
    "workflow" TEXT NOT NULL,
    "ref" TEXT,
    "sourceUrl" TEXT,
    "runUrl" TEXT,
    "claims" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "VersionProvenance_pkey" PRIMARY KEY ("versionId")
);

-- CreateTable
CREATE TABLE "TrustedPublisher" (
    "id" TEXT NOT NULL,
    "skillId" TEXT NOT NULL,
    "issuer" TEXT NOT NULL,
    "claims" JSONB NOT NULL,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TrustedPublisher_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TrustedPublishGrant" (
    "tokenId" TEXT NOT NULL,
    "publisherId" TEXT NOT NULL,
    "skillId" TEXT NOT NULL,
    "provenance" JSONB NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TrustedPublishGrant_pkey" PRIMARY KEY ("tokenId")
);

-- CreateIndex
CREATE INDEX "VersionEvidence_status_queuedAt_idx" ON "VersionEvidence"("status", "queuedAt");

-- CreateIndex
CREATE INDEX "TrustedPublisher_skillId_idx" ON "TrustedPublisher"("skillId");

-- AddForeignKey
ALTER TABLE "VersionEvidence" ADD CONSTRAINT "VersionEvidence_versionId_fkey" FOREIGN KEY ("versionId") REFERENCES "SkillVersion"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "VersionProvenance" ADD CONSTRAINT "VersionProvenance_versionId_fkey" FOREIGN KEY ("versionId") REFERENCES "SkillVersion"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TrustedPublisher" ADD CONSTRAINT "TrustedPublisher_skillId_fkey" FOREIGN KEY ("skillId") REFERENCES "Skill"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TrustedPublishGrant" ADD CONSTRAINT "TrustedPublishGrant_tokenId_fkey" FOREIGN KEY ("tokenId") REFERENCES "ApiToken"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TrustedPublishGrant" ADD CONSTRAINT "TrustedPublishGrant_publisherId_fkey" FOREIGN KEY ("publisherId") REFERENCES "TrustedPublisher"("id") ON DELETE CASCADE ON UPDATE CASCADE;
