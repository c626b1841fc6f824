// Applies prisma/migrations/*/migration.sql in order, one transaction each, recorded in
// Prisma's standard `_prisma_migrations` table, under an advisory lock so that two
// instances starting together never migrate at once.
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';

const LOCK_KEY = 727_274_001; // arbitrary, stable: "skillyard migrations"

export type MigrationFile = { name: string; sql: string; checksum: string };

export class MigrationError extends Error {
  code = 'db/migration-failed';
}

export async function readMigrations(dir: string): Promise<MigrationFile[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
  const names = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const files: MigrationFile[] = [];
  for (const name of names) {
    const sql = await fs.readFile(path.join(dir, name, 'migration.sql'), 'utf8');
    files.push({ name, sql, checksum: crypto.createHash('sha256').update(sql).digest('hex') });
  }
  return files;
}

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

/** Returns the names of the migrations it applied (empty when the database was current). */
export async function applyMigrations(connectionString: string, dir = path.join(process.cwd(), 'prisma', 'migrations')): Promise<string[]> {
  const migrations = await readMigrations(dir);
  const client = new pg.Client({ connectionString });
  await client.connect();
  const applied: string[] = [];
  try {
    await client.query('SELECT pg_advisory_lock($1)', [LOCK_KEY]);
    await client.query(CREATE_TABLE);
    const done = await client.query<{ migration_name: string; checksum: string }>(
      'SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
    );
    const byName = new Map(done.rows.map((r) => [r.migration_name, r.checksum]));
    for (const m of migrations) {
      const previous = byName.get(m.name);
      if (previous !== undefined) {
        if (previous !== m.checksum) {
          throw new MigrationError(`Migration ${m.name} was changed after it was applied (checksum differs). ` + `Applied migrations are immutable: add a new migration instead.`);
        }
        continue;
      }
      await client.query('BEGIN');
      try {
        await client.query(m.sql);
        await client.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count)
           VALUES ($1, $2, now(), $3, 1)`,
          [crypto.randomUUID(), m.checksum, m.name],
        );
        await client.query('COMMIT');
        applied.push(m.name);
      } catch (err) {
        await client.query('ROLLBACK');
        throw new MigrationError(`Migration ${m.name} failed: ${(err as Error).message}`);
      }
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [LOCK_KEY]).catch(() => {});
    await client.end();
  }
  return applied;
}
