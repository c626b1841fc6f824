// Throwaway databases for tests and migration tooling: on the server behind
// DATABASE_URL when it is set, otherwise on an embedded Postgres of their own (a
// separate data folder and port, so a running `npm start` is never disturbed).
import crypto from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from './embedded-postgres';
import { setting } from '../config';

export type ScratchServer = { adminUrl: string; stop(): Promise<void> };

/** `name` picks the data folder (.data/<name>) and so keeps concurrent users apart. */
export async function startScratchServer(name = 'test', port = setting('SKILLYARD_TEST_PG_PORT')): Promise<ScratchServer> {
  const configured = setting('DATABASE_URL');
  if (configured) {
    const url = new URL(configured);
    url.pathname = '/postgres';
    return { adminUrl: url.toString(), stop: async () => {} };
  }
  const db = await startEmbeddedPostgres({ dataDir: path.join(process.cwd(), '.data', name), port, takeOver: true, durable: false });
  return { adminUrl: db.adminUrl, stop: db.stop };
}

export function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function admin<T>(adminUrl: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export async function createScratchDatabase(adminUrl: string, prefix = 'skillyard_scratch'): Promise<string> {
  const name = `${prefix}_${crypto.randomBytes(6).toString('hex')}`;
  await admin(adminUrl, (c) => c.query(`CREATE DATABASE ${name}`));
  return name;
}

export async function dropScratchDatabase(adminUrl: string, name: string): Promise<void> {
  await admin(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}

/** Runs `fn` with the URL of a new empty database, and drops it afterwards. */
export async function withScratchDatabase<T>(fn: (url: string) => Promise<T>): Promise<T> {
  const server = await startScratchServer('scratch', setting('SKILLYARD_SCRATCH_PG_PORT'));
  try {
    const name = await createScratchDatabase(server.adminUrl);
    try {
      return await fn(databaseUrl(server.adminUrl, name));
    } finally {
      await dropScratchDatabase(server.adminUrl, name);
    }
  } finally {
    await server.stop();
  }
}
