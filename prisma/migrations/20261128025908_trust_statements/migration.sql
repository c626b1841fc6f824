-- CreateTable
CREATE TABLE "SigningKey" (
    "id" TEXT NOT NULL,
    "publicJwk" JSONB NOT NULL,
    "privateKeySealed" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "retiredAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),
    "revokeReason" TEXT,

    CONSTRAINT "SigningKey_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "VersionStatement" (
    "id" TEXT NOT NULL,
    "versionId" TEXT NOT NULL,
    "keyId" TEXT NOT NULL,
    "jws" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "VersionStatement_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "FindingReview" (
    "id" TEXT NOT NULL,
    "versionId" TEXT NOT NULL,
    "rule" TEXT NOT NULL,
    "file" TEXT NOT NULL,
    "line" INTEGER NOT NULL,
    "reason" TEXT NOT NULL,
    "reviewedById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "FindingReview_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "VersionStatement_versionId_createdAt_idx" ON "VersionStatement"("versionId", "createdAt");

-- CreateIndex
CREATE INDEX "FindingReview_versionId_createdAt_idx" ON "FindingReview"("versionId", "createdAt");

-- AddForeignKey
ALTER TABLE "VersionStatement" ADD CONSTRAINT "VersionStatement_versionId_fkey" FOREIGN KEY ("versionId") REFERENCES "SkillVersion"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "VersionStatement" ADD CONSTRAINT "VersionStatement_keyId_fkey" FOREIGN KEY ("keyId") REFERENCES "SigningKey"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FindingReview" ADD CONSTRAINT "FindingReview_versionId_fkey" FOREIGN KEY ("versionId") REFERENCES "SkillVersion"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FindingReview" ADD CONSTRAINT "FindingReview_reviewedById_fkey" FOREIGN KEY ("reviewedById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;
