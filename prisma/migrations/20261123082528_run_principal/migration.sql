-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "principal" TEXT NOT NULL DEFAULT 'anonymous';

-- CreateIndex
CREATE INDEX "Run_principal_status_idx" ON "Run"("principal", "status");
