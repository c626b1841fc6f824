-- A version's tarball in parts of at most a megabyte (lib/registry/tarball-parts.ts);
-- versions published before keep "SkillVersion"."tarball".
CREATE TABLE "TarballPart" (
    "versionId" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "data" BYTEA NOT NULL,

    CONSTRAINT "TarballPart_pkey" PRIMARY KEY ("versionId","index")
);

ALTER TABLE "TarballPart" ADD CONSTRAINT "TarballPart_versionId_fkey" FOREIGN KEY ("versionId") REFERENCES "SkillVersion"("id") ON DELETE CASCADE ON UPDATE CASCADE;
