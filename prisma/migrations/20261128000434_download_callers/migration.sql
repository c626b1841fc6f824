-- CreateTable
CREATE TABLE "DownloadCaller" (
    "versionId" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "caller" TEXT NOT NULL,

    CONSTRAINT "DownloadCaller_pkey" PRIMARY KEY ("versionId","day","caller")
);

-- CreateIndex
CREATE INDEX "DownloadCaller_day_idx" ON "DownloadCaller"("day");
