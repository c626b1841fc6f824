// A database of its own for an integration test file whose assertions need the run
// queue to itself (no other file's worker may claim its runs): created on the test
// server, migrated and seeded, dropped at the end.
import { inject } from 'vitest';
import { createDb, type Db } from '../../db/client';
import { applyMigrations } from '../../db/migrate';
import { createScratchDatabase, databaseUrl, dropScratchDatabase } from '../../db/scratch-database';
import { seedBundledSkills } from '../../registry/seed-bundled-skills';

export async function isolatedRunDb(): Promise<{ url: string; db: Db; drop(): Promise<void> }> {
  const admin = inject('adminDatabaseUrl');
  const name = await createScratchDatabase(admin, 'skillyard_runs');
  const url = databaseUrl(admin, name);
  await applyMigrations(url);
  const db = createDb(url);
  await seedBundledSkills(db);
  return {
    url,
    db,
    async drop() {
      await db.$disconnect();
      await dropScratchDatabase(admin, name);
    },
  };
}
