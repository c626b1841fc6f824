import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
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

  it('apply as a database owner who is not a superuser (a managed Postgres)', async () => {
    const url = await freshDatabase();
    const role = `skillyard_owner_${Date.now().toString(36)}`;
    const root = new pg.Client({ connectionString: url });
    await root.connect();
    try {
      await root.query(`CREATE ROLE ${role} LOGIN PASSWORD 'owner-pw' NOSUPERUSER`);
      await root.query(`ALTER DATABASE "${new URL(url).pathname.slice(1)}" OWNER TO ${role}`);
      await root.query(`ALTER SCHEMA public OWNER TO ${role}`);
      const asOwner = new URL(url);
      asOwner.username = role;
      asOwner.password = 'owner-pw';
      expect(await applyMigrations(asOwner.toString())).toEqual((await readMigrations('prisma/migrations')).map((m) => m.name));
      // the filters' GIN indexes, with btree_gin's own operator classes (a superuser's copies need a superuser)
      const idx = await root.query(`SELECT indexdef FROM pg_indexes WHERE indexname = 'SkillSearch_textVector_format_signed_tokenGated_idx'`);
      expect(idx.rows[0].indexdef).toContain('USING gin ("textVector", format, signed, "tokenGated")');
    } finally {
      await root.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1`, [role]);
      await root.query(`REASSIGN OWNED BY ${role} TO CURRENT_USER`);
      await root.query(`DROP OWNED BY ${role}`);
      await root.query(`DROP ROLE ${role}`);
      await root.end();
    }
  });

  it('detect drift when the database differs from the schema', async () => {
    const url = await freshDatabase();
    await applyMigrations(url);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    // (not a column the "SkillSearch_copy" trigger reads: that one cannot be dropped)
    await client.query('ALTER TABLE "Skill" DROP COLUMN "toolCount"');
    await client.end();
    const engine = await openSchemaEngine(url);
    expect(await diffDatabaseToSchema(engine)).toMatch(/ADD COLUMN\s+"toolCount"/);
  });

  it('re-key existing storage rows by full @scope/name (unambiguous names only) and size them', async () => {
    const url = await freshDatabase();
    // the database as it was before the storage migration
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'skillyard-mig-'));
    const all = await readMigrations('prisma/migrations');
    const before = all.findIndex((m) => m.name.endsWith('_storage_scope_and_quota'));
    for (const m of all.slice(0, before)) {
      await fs.mkdir(path.join(dir, m.name));
      await fs.writeFile(path.join(dir, m.name, 'migration.sql'), m.sql);
    }
    await applyMigrations(url, dir);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`INSERT INTO "Scope" (name, kind) VALUES ('skillyard', 'team'), ('mallory', 'user')`);
    await client.query(`INSERT INTO "Skill" (id, "scopeName", name, description, format, "updatedAt") VALUES
      ('s1', 'skillyard', 'notebook', '', 'malv', now()), ('s2', 'mallory', 'notebook', '', 'malv', now()), ('s3', 'skillyard', 'text-stats', '', 'malv', now())`);
    await client.query(`INSERT INTO "KvEntry" (skill, "callerId", namespace, key, value, "updatedAt") VALUES
      ('text-stats', 'user:1', 'default', 'k', '{"n":1}', now()), ('notebook', 'user:1', 'default', 'k', '"x"', now())`);
    await applyMigrations(url);
    const rows = await client.query('SELECT skill, bytes FROM "KvEntry" ORDER BY skill');
    await client.end();
    await fs.rm(dir, { recursive: true, force: true });
    // `notebook` exists in two scopes: its rows cannot be attributed and stay unreadable
    expect(rows.rows).toEqual([
      { skill: '@skillyard/text-stats', bytes: Buffer.byteLength('{"n": 1}') },
      { skill: 'notebook', bytes: 3 },
    ]);
  });
});
