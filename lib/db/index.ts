// lib/db: the Prisma client of the process. What starts and migrates a database
// (embedded-postgres.ts, migrate.ts, scratch-database.ts) is for scripts, benches and
// tests, which take those files directly: the server never loads them.
import 'server-only';
export { db, createDb, type Db } from './client';
export { Prisma } from './generated/client';
