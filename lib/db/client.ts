// The one Prisma client of a process, on the pg driver adapter (no engine binary).
import 'server-only';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/client';
import { setting } from '../config';

export type Db = PrismaClient;

const globalForDb = globalThis as unknown as { skillyardDb?: PrismaClient; skillyardDbUrl?: string };

export function createDb(connectionString: string): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString, max: 10 }) });
}

/** The shared client for DATABASE_URL (reused across Next.js hot reloads). */
export function db(): PrismaClient {
  const url = setting('DATABASE_URL');
  if (!url) throw new Error('DATABASE_URL is not set: start the app with `npm start`, which sets it.');
  if (!globalForDb.skillyardDb || globalForDb.skillyardDbUrl !== url) {
    globalForDb.skillyardDb = createDb(url);
    globalForDb.skillyardDbUrl = url;
  }
  return globalForDb.skillyardDb;
}
