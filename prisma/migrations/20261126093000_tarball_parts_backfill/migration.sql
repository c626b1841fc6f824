-- Tarballs stored whole before parts existed move into parts of a megabyte (the same
-- split as lib/registry/tarball-parts.ts), so no download decodes a whole tarball in one
-- value any more. Runs in the database; the column is emptied afterwards.
INSERT INTO "TarballPart" ("versionId", "index", "data")
SELECT v."id", g.i, substring(v."tarball" FROM g.i * 1000000 + 1 FOR 1000000)
FROM "SkillVersion" v
CROSS JOIN LATERAL generate_series(0, GREATEST(length(v."tarball") - 1, 0) / 1000000) AS g(i)
WHERE v."tarball" IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM "TarballPart" p WHERE p."versionId" = v."id");

UPDATE "SkillVersion" SET "tarball" = NULL WHERE "tarball" IS NOT NULL;
