import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { applyMigrations, readMigrations } from './migrate';
import { createScratchDatabase, databaseUrl, dropScratchDatabase } from './scratch-database';
import { diffDatabaseToSchema, openSchemaEngine } from '../../scripts/schema-engine';

const admin = () => inject('adminDatabaseUrl');
const created: string[] = [];
afterAll(async () => {
  for (const name of created) await dropScratchDatabase(admin(), name);
});

async function freshDatabase(): Promise<string> {
  const name = await createScratchDatabase(admin(), 'skillyard_migrate');
  created.push(name);
  return databaseUrl(admin(), name);
}

describe('migrations', () => {
  it('apply in order once, and a second run applies nothing', async () => {
    const url = await freshDatabase();
    const all = (await readMigrations('prisma/migrations')).map((m) => m.name);
    expect(await applyMigrations(url)).toEqual(all);
    expect(await applyMigrations(url)).toEqual([]);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const rows = await client.query('SELECT migration_name FROM "_prisma_migrations" ORDER BY migration_name');
    await client.end();
    expect(rows.rows.map((r) => r.migration_name)).toEqual(all);
  });

  it('two instances starting together migrate exactly once', async () => {
    const url = await freshDatabase();
    const [a, b] = await Promise.all([applyMigrations(url), applyMigrations(url)]);
    expect([...a, ...b].length).toBe((await readMigrations('prisma/migrations')).length);
  });

  it('match schema.prisma exactly (no drift)', async () => {
    const url = await freshDatabase();
    await applyMigrations(url);
    const engine = await openSchemaEngine(url);
    expect(await diffDatabaseToSchema(engine)).toBe('');
  });

  it('detect drift when the database differs from the schema', async () => {
    const url = await freshDatabase();
    await applyMigrations(url);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query('ALTER TABLE "Skill" DROP COLUMN "downloads"');
    await client.end();
    const engine = await openSchemaEngine(url);
    expect(await diffDatabaseToSchema(engine)).toMatch(/ADD COLUMN\s+"downloads"/);
  });
});
