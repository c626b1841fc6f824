// The Postgres package store (the embedded default) on the real database, with the same
// contract as the S3 store.
import crypto from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client';
import { testDatabaseUrl, testDb } from '../../../test/db';
import { createPgPackageStore, READ_SLICE_BYTES, STATEMENT_BYTES } from './pg-package-store';
import { packageStoreContract } from './testing/store-contract';
import { SliceCache } from './slice-cache';
import { readAll } from './read-all';

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

/** testDb() with its $queryRaw calls counted */
function countingDb(): { db: Db; reads: () => number } {
  let reads = 0;
  const db = new Proxy(testDb(), {
    get(target, prop) {
      const v = Reflect.get(target, prop);
      if (prop === '$queryRaw') return (...args: unknown[]) => (reads++, (v as (...a: unknown[]) => unknown).apply(target, args));
      return typeof v === 'function' ? v.bind(target) : v;
    },
  }) as Db;
  return { db, reads: () => reads };
}

describe('the slices a download read', () => {
  it('serve the next download of the version from memory, and are forgotten when its bytes are removed', async () => {
    const id = (await testDb().skillVersion.create({ data: { skillId, version: `1.0.${next++}`, manifest: {}, contentHash: 'h', sizeBytes: 1 } })).id;
    const bytes = crypto.randomBytes(STATEMENT_BYTES + READ_SLICE_BYTES + 17);
    const cache = new SliceCache(8 * 1024 * 1024);
    const { db, reads } = countingDb();
    const store = createPgPackageStore(db, { cache });
    await store.put(id, bytes);
    expect(Buffer.from(await readAll(store.open(id))).equals(bytes)).toBe(true);
    const first = reads();
    expect(first).toBeGreaterThan(0);
    // again, whole and by range: every slice from memory, the same bytes
    expect(Buffer.from(await readAll(store.open(id))).equals(bytes)).toBe(true);
    expect(reads()).toBe(first);
    expect(cache.size).toBe(bytes.byteLength);
    await store.remove(id);
    expect(cache.size).toBe(0);
    await expect(readAll(store.open(id))).rejects.toThrow(/deleted/);
  });

  it('are not kept with no cache', async () => {
    const id = (await testDb().skillVersion.create({ data: { skillId, version: `1.0.${next++}`, manifest: {}, contentHash: 'h', sizeBytes: 1 } })).id;
    const bytes = crypto.randomBytes(READ_SLICE_BYTES + 1);
    const { db, reads } = countingDb();
    const store = createPgPackageStore(db, { cache: null });
    await store.put(id, bytes);
    await readAll(store.open(id));
    const first = reads();
    await readAll(store.open(id));
    expect(reads()).toBe(2 * first);
  });
});

describe('a download from the Postgres store', () => {
  it('reads one slice of a part when the client asks for the next, never a whole part or more', async () => {
    const id = (await testDb().skillVersion.create({ data: { skillId, version: `1.0.${next++}`, manifest: {}, contentHash: 'h', sizeBytes: 1 } })).id;
    // two full parts and a last one that ends on a slice boundary
    const bytes = crypto.randomBytes(2 * STATEMENT_BYTES + 2 * READ_SLICE_BYTES);
    await createPgPackageStore(testDb()).put(id, bytes);
    const { db: counting, reads } = countingDb();
    const reader = createPgPackageStore(counting).open(id).getReader();
    await new Promise((r) => setTimeout(r, 50));
    expect(reads()).toBe(0); // nothing before the client asks
    const chunks: Uint8Array[] = [];
    for (;;) {
      const before = reads();
      const { done, value } = await reader.read();
      if (done) break;
      expect(reads() - before).toBe(1); // one slice per chunk asked for
      expect(value.byteLength).toBeLessThanOrEqual(READ_SLICE_BYTES);
      chunks.push(value);
    }
    expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
  });
});
