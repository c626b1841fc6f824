// Run ids are share links (run-id.ts): 128 bits from the CSPRNG, nothing an attacker can
// derive from their own ids, and ids made before (cuid) are replaced by the migration.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it, inject } from 'vitest';
import { testDb } from '../../test/db';
import { applyMigrations, readMigrations } from '../db/migrate';
import { createDb } from '../db/client';
import { createScratchDatabase, databaseUrl, dropScratchDatabase } from '../db/scratch-database';
import { seedBundledSkills } from '../registry/seed-bundled-skills';
import { createRun } from './create-run';
import { forkRun } from './fork-run';
import { getRun } from './get-run';

process.env.SKILLYARD_RUN_MAX_ACTIVE = '1000';
process.env.SKILLYARD_RUN_MAX_ACTIVE_ANONYMOUS = '1000';

const created: string[] = [];
afterAll(async () => {
  for (const name of created) await dropScratchDatabase(inject('adminDatabaseUrl'), name);
});

const commonPrefix = (a: string, b: string) => {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return i;
};
const config = { skills: ['@skillyard/text-stats'], provider: 'manual', task: 'share me', visibility: 'unlisted' };

describe('run ids (share links)', () => {
  it("are 128 random bits: one caller's consecutive ids share nothing an attacker could extend", async () => {
    await seedBundledSkills(testDb());
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push((await createRun(testDb(), { config, userId: null, principal: 'anon:links' })).id);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
    // a cuid starts with its creation time and counter: ids made a moment apart share a long
    // prefix and differ in a few predictable places. Random ids share ~0 hex digits.
    let shared = 0;
    for (let i = 1; i < ids.length; i++) shared = Math.max(shared, commonPrefix(ids[i - 1]!, ids[i]!));
    expect(shared).toBeLessThan(6);
    const positionsThatNeverChange = [...ids[0]!].filter((ch, i) => ids.every((id) => id[i] === ch)).length;
    expect(positionsThatNeverChange).toBeLessThan(4);
  });

  it("a run's neighbour cannot be read by changing a digit, and a cuid-shaped id is no run", async () => {
    const { id } = await createRun(testDb(), { config, userId: null, principal: 'anon:links' });
    await expect(getRun(testDb(), id, { userId: null })).resolves.toMatchObject({ id, visibility: 'unlisted' });
    const last = id.at(-1)!;
    const neighbour = id.slice(0, -1) + (last === '0' ? '1' : '0');
    await expect(getRun(testDb(), neighbour, { userId: null })).rejects.toMatchObject({ code: 'run/not-found' });
    await expect(getRun(testDb(), 'cmihx3k1x0000abcdefghijkl', { userId: null })).rejects.toMatchObject({ code: 'run/not-found' });
  });

  it('a fork shown to someone else does not hand on the link of the run it was forked from', async () => {
    const original = await createRun(testDb(), { config, userId: null, principal: 'anon:links' });
    const fork = await forkRun(testDb(), original.id, { userId: null }, {}, 'anon:forker');
    expect((await getRun(testDb(), fork.id, { userId: null, controlToken: fork.controlToken })).forkedFromId).toBe(original.id);
    expect((await getRun(testDb(), fork.id, { userId: null })).forkedFromId).toBeNull();
  });

  it('the migration replaces every stored id, so old predictable links stop granting access', async () => {
    const name = await createScratchDatabase(inject('adminDatabaseUrl'), 'skillyard_runids');
    created.push(name);
    const url = databaseUrl(inject('adminDatabaseUrl'), name);
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'skillyard-runids-'));
    const all = await readMigrations('prisma/migrations');
    const before = all.findIndex((m) => m.name.endsWith('_unguessable_run_ids'));
    expect(before).toBeGreaterThan(0);
    for (const m of all.slice(0, before)) {
      await fs.mkdir(path.join(dir, m.name));
      await fs.writeFile(path.join(dir, m.name, 'migration.sql'), m.sql);
    }
    await applyMigrations(url, dir);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const old = ['cmihx3k1x0000qz8h2k1l9v7a', 'cmihx3k1x0001qz8h4m2p0w8b'];
    await client.query(`INSERT INTO "Run" (id, config, visibility, principal) VALUES ($1, '{}', 'unlisted', 'anon:x'), ($2, '{}', 'unlisted', 'anon:x')`, old);
    await client.query(`UPDATE "Run" SET "forkedFromId" = $1 WHERE id = $2`, old);
    await client.query(`INSERT INTO "RunEvent" ("runId", seq, type, data) VALUES ($1, 1, 'log', '{"secret":"trace"}')`, [old[0]]);
    await applyMigrations(url);
    const runs = (await client.query('SELECT id, "forkedFromId" FROM "Run"')).rows as Array<{ id: string; forkedFromId: string | null }>;
    const events = (await client.query('SELECT "runId", data FROM "RunEvent"')).rows as Array<{ runId: string; data: unknown }>;
    await client.end();
    await fs.rm(dir, { recursive: true, force: true });
    expect(runs).toHaveLength(2);
    for (const r of runs) expect(r.id).toMatch(/^[0-9a-f]{64}$/);
    const [a, b] = [runs.find((r) => r.forkedFromId === null)!, runs.find((r) => r.forkedFromId !== null)!];
    expect(b.forkedFromId).toBe(a.id); // the fork still points at its original
    expect(events).toEqual([{ runId: a.id, data: { secret: 'trace' } }]); // the trace moved with it
    const db = createDb(url);
    try {
      for (const id of old) await expect(getRun(db, id, { userId: null })).rejects.toMatchObject({ code: 'run/not-found' });
      await expect(getRun(db, a.id, { userId: null })).resolves.toMatchObject({ id: a.id, eventCount: 1 });
    } finally {
      await db.$disconnect();
    }
  });
});
