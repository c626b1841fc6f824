-- CreateTable
CREATE TABLE "RunTurn" (
    "id" BIGSERIAL NOT NULL,
    "runId" TEXT NOT NULL,
    "turn" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RunTurn_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "McpSession" (
    "id" TEXT NOT NULL,
    "principal" TEXT NOT NULL,
    "selection" TEXT NOT NULL,
    "protocolVersion" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "McpSession_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "RunTurn_runId_id_idx" ON "RunTurn"("runId", "id");

-- CreateIndex
CREATE INDEX "McpSession_principal_lastSeenAt_idx" ON "McpSession"("principal", "lastSeenAt");

-- CreateIndex
CREATE INDEX "McpSession_lastSeenAt_idx" ON "McpSession"("lastSeenAt");

-- AddForeignKey
ALTER TABLE "RunTurn" ADD CONSTRAINT "RunTurn_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;
