-- AlterTable
ALTER TABLE "ApiToken" ADD COLUMN     "createdById" TEXT;

-- AlterTable
ALTER TABLE "Team" ADD COLUMN     "createdById" TEXT;

-- CreateIndex
CREATE INDEX "Team_createdById_idx" ON "Team"("createdById");

-- Existing teams and team tokens are charged to who made them, as the audit log recorded
-- it (lib/teams/create-team.ts, create-team-api-token.ts); failing that, to the team's
-- oldest owner.
UPDATE "Team" t SET "createdById" = COALESCE(
  (SELECT a."actorUserId" FROM "AuditEvent" a WHERE a."teamId" = t."id" AND a."action" = 'team.create' AND a."actorUserId" IS NOT NULL ORDER BY a."createdAt" LIMIT 1),
  (SELECT m."userId" FROM "Membership" m WHERE m."teamId" = t."id" AND m."role" = 'owner' ORDER BY m."createdAt" LIMIT 1)
);
UPDATE "ApiToken" k SET "createdById" = COALESCE(
  (SELECT a."actorUserId" FROM "AuditEvent" a WHERE a."teamId" = k."teamId" AND a."action" = 'token.create' AND a."target" = k."id" AND a."actorUserId" IS NOT NULL LIMIT 1),
  (SELECT t."createdById" FROM "Team" t WHERE t."id" = k."teamId")
) WHERE k."teamId" IS NOT NULL;
