-- Run ids are share links (lib/runs/run-id.ts). Ids made before were Prisma cuid()s,
-- predictable from a few of an attacker's own ids: every stored run gets a new id of
-- two v4 UUIDs' hex digits (2 x 122 bits from Postgres' CSPRNG, gen_random_uuid is
-- core since PG 13), so old links stop granting access. RunEvent.runId and
-- Run.forkedFromId and RunTurn.runId follow through their ON UPDATE CASCADE foreign keys.
UPDATE "Run" SET "id" = replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '');
