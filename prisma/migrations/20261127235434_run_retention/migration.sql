-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "traceRemovedAt" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "RemovedRun" (
    "id" TEXT NOT NULL,
    "removedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RemovedRun_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Run_finishedAt_idx" ON "Run"("finishedAt");
