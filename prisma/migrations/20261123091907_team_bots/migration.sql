-- AlterTable
ALTER TABLE "User" ADD COLUMN     "botForTeamId" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "User_botForTeamId_key" ON "User"("botForTeamId");
