// What every start does before serving: find or start the database, migrate, seed
// (production mode does the last two only when asked). Part of scripts/start.ts, bundled
// with it: the Next.js server never loads the embedded Postgres or the migrator.
import path from 'node:path';
import { createDb } from '../lib/db/client.ts';
import { startEmbeddedPostgres } from '../lib/db/embedded-postgres.ts';
import { applyMigrations } from '../lib/db/migrate.ts';
import { seedBundledSkills, type SeedReport } from '../lib/registry/seed-bundled-skills.ts';
import { setting } from '../lib/config/index.ts';

export type PreparedDatabase = {
  url: string;
  embedded: boolean;
  migrationsApplied: string[];
  seed: SeedReport | null;
  stop(): Promise<void>;
};

export async function prepareDatabase(opts: {
  root: string;
  seed: boolean;
  /** apply pending migrations (default true; production mode migrates only when asked) */
  migrate?: boolean;
  log: (line: string) => void;
}): Promise<PreparedDatabase> {
  let url = setting('DATABASE_URL');
  let stop = async () => {};
  const embedded = !url;
  if (!url) {
    const port = setting('SKILLYARD_PG_PORT');
    const dataDir = setting('SKILLYARD_DATA_DIR') ?? path.join(opts.root, '.data');
    opts.log(`starting the embedded Postgres on 127.0.0.1:${port} (data in ${path.relative(opts.root, dataDir) || dataDir}/pg)`);
    const server = await startEmbeddedPostgres({ dataDir, port });
    url = server.url;
    stop = server.stop;
  }
  try {
    const migrationsApplied = opts.migrate === false ? [] : await applyMigrations(url, path.join(opts.root, 'prisma', 'migrations'));
    if (migrationsApplied.length) opts.log(`applied migrations: ${migrationsApplied.join(', ')}`);
    let seed: SeedReport | null = null;
    if (opts.seed) {
      const db = createDb(url);
      try {
        seed = await seedBundledSkills(db, path.join(opts.root, 'skills'));
      } finally {
        await db.$disconnect();
      }
      opts.log(
        `bundled skills: ${seed.published.length} published, ${seed.unchanged.length} unchanged` +
          (seed.invalid.length ? `, ${seed.invalid.length} invalid (${seed.invalid.join(', ')})` : ''),
      );
    }
    return { url, embedded, migrationsApplied, seed, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
