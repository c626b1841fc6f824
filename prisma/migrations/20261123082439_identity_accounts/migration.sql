-- AlterTable
ALTER TABLE "HeldToken" ADD COLUMN     "refreshSecret" TEXT;

-- CreateTable
CREATE TABLE "ModelKey" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "secret" TEXT NOT NULL,
    "last4" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ModelKey_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DeviceLogin" (
    "id" TEXT NOT NULL,
    "deviceHash" TEXT NOT NULL,
    "userCode" TEXT NOT NULL,
    "userId" TEXT,
    "tokenSecret" TEXT,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "DeviceLogin_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ModelKey_userId_provider_key" ON "ModelKey"("userId", "provider");

-- CreateIndex
CREATE UNIQUE INDEX "DeviceLogin_deviceHash_key" ON "DeviceLogin"("deviceHash");

-- CreateIndex
CREATE UNIQUE INDEX "DeviceLogin_userCode_key" ON "DeviceLogin"("userCode");

-- AddForeignKey
ALTER TABLE "ModelKey" ADD CONSTRAINT "ModelKey_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DeviceLogin" ADD CONSTRAINT "DeviceLogin_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
