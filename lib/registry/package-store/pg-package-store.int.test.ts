// The Postgres package store (the embedded default) on the real database, with the same
// contract as the S3 store.
import crypto from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client';
import { testDatabaseUrl, testDb } from '../../../test/db';
import { createPgPackageStore, READ_SLICE_BYTES, STATEMENT_BYTES } from './pg-package-store';
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

describe('a download from the Postgres store', () => {
  it('reads one slice of a part when the client asks for the next, never a whole part or more', async () => {
    const id = (await testDb().skillVersion.create({ data: { skillId, version: `1.0.${next++}`, manifest: {}, contentHash: 'h', sizeBytes: 1 } })).id;
    // two full parts and a last one that ends on a slice boundary
    const bytes = crypto.randomBytes(2 * STATEMENT_BYTES + 2 * READ_SLICE_BYTES);
    await createPgPackageStore(testDb()).put(id, bytes);
    let reads = 0;
    const counting = new Proxy(testDb(), {
      get(target, prop) {
        const v = Reflect.get(target, prop);
        if (prop === '$queryRaw') return (...args: unknown[]) => (reads++, (v as (...a: unknown[]) => unknown).apply(target, args));
        return typeof v === 'function' ? v.bind(target) : v;
      },
    }) as Db;
    const reader = createPgPackageStore(counting).open(id).getReader();
    await new Promise((r) => setTimeout(r, 50));
    expect(reads).toBe(0); // nothing before the client asks
    const chunks: Uint8Array[] = [];
    for (;;) {
      const before = reads;
      const { done, value } = await reader.read();
      if (done) break;
      expect(reads - before).toBe(1); // one slice per chunk asked for
      expect(value.byteLength).toBeLessThanOrEqual(READ_SLICE_BYTES);
      chunks.push(value);
    }
    expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
  });
});
