// Vitest global setup for integration tests: one throwaway database per run, migrated,
// on the embedded test server (or on DATABASE_URL's server), dropped afterwards.
import type { TestProject } from 'vitest/node';
import { createScratchDatabase, databaseUrl, dropScratchDatabase, startScratchServer } from '../lib/db/scratch-database';
import { applyMigrations } from '../lib/db/migrate';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    adminDatabaseUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const server = await startScratchServer('test', Number(process.env.SKILLYARD_TEST_PG_PORT ?? 54330));
  const name = await createScratchDatabase(server.adminUrl, 'skillyard_test');
  const url = databaseUrl(server.adminUrl, name);
  await applyMigrations(url);
  project.provide('databaseUrl', url);
  project.provide('adminDatabaseUrl', server.adminUrl);
  return async () => {
    await dropScratchDatabase(server.adminUrl, name);
    await server.stop();
  };
}
