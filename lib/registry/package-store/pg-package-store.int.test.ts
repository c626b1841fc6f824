// The Postgres package store (the embedded default) on the real database, with the same
// contract as the S3 store.
import crypto from 'node:crypto';
import { beforeAll, describe } from 'vitest';
import { testDatabaseUrl, testDb } from '../../../test/db';
import { createPgPackageStore } from './pg-package-store';
import { packageStoreContract } from './testing/store-contract';

let skillId: string;
let next = 0;

beforeAll(async () => {
  process.env.DATABASE_URL = testDatabaseUrl();
  const scope = `pkgstore-${crypto.randomBytes(4).toString('hex')}`;
  await testDb().scope.create({ data: { name: scope, kind: 'user' } });
  skillId = (await testDb().skill.create({ data: { scopeName: scope, name: 'bytes', description: 'd', format: 'skill-md' } })).id;
});

describe('Postgres package store', () => {
  packageStoreContract(
    () => createPgPackageStore(testDb()),
    async () => (await testDb().skillVersion.create({ data: { skillId, version: `1.0.${next++}`, manifest: {}, contentHash: 'h', sizeBytes: 1 } })).id,
  );
});
