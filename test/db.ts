// The integration tests' database: the one test/global-db.ts created for this run.
import { inject } from 'vitest';
import { createDb, type Db } from '../lib/db/client';

let shared: Db | null = null;

export function testDatabaseUrl(): string {
  return inject('databaseUrl');
}

export function testDb(): Db {
  shared ??= createDb(testDatabaseUrl());
  return shared;
}
