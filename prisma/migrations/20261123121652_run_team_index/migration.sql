-- CreateIndex
CREATE INDEX "Run_teamId_createdAt_idx" ON "Run"("teamId", "createdAt");
