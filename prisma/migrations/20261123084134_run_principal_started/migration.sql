-- CreateIndex
CREATE INDEX "Run_principal_startedAt_idx" ON "Run"("principal", "startedAt");
