// Moving package bytes between the Postgres store and an S3-compatible one (s3rver):
// every version arrives intact, the source is emptied, a second run moves nothing, and
// bytes that no longer match their recorded integrity stay where they are. Only this
// file's skill is moved: other test files share the database.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl, testDb } from '../../../test/db';
import { createPgPackageStore } from './pg-package-store';
import { createS3PackageStore } from './s3-package-store';
import { movePackages } from './move-packages';
import { startTestS3, type TestS3 } from './testing/s3rver';
import type { PackageStore } from './types';

let s3: TestS3;
let s3Store: PackageStore;
let skillId: string;
let next = 0;
const integrity = (b: Uint8Array) => `sha512-${crypto.createHash('sha512').update(b).digest('base64')}`;

beforeAll(async () => {
  process.env.DATABASE_URL = testDatabaseUrl();
  s3 = await startTestS3(Number(process.env.SKILLYARD_TEST_S3_PORT ?? 54350) + 1);
  s3Store = createS3PackageStore({ bucket: s3.bucket, prefix: `move-${crypto.randomBytes(3).toString('hex')}/`, region: 'us-east-1', endpoint: s3.endpoint });
  const scope = `pkgmove-${crypto.randomBytes(4).toString('hex')}`;
  await testDb().scope.create({ data: { name: scope, kind: 'user' } });
  skillId = (await testDb().skill.create({ data: { scopeName: scope, name: 'moved', description: 'd', format: 'skill-md' } })).id;
});
afterAll(async () => {
  await s3.close();
});

async function version(bytes: Uint8Array, recorded = integrity(bytes)): Promise<string> {
  const v = await testDb().skillVersion.create({ data: { skillId, version: `2.0.${next++}`, manifest: {}, contentHash: 'h', sizeBytes: bytes.byteLength, integrity: recorded } });
  await createPgPackageStore(testDb()).put(v.id, bytes);
  return v.id;
}

describe('movePackages', () => {
  it('moves every version to S3 and back, intact, and a second run moves nothing', async () => {
    const pg = createPgPackageStore(testDb());
    const payloads = [crypto.randomBytes(10), crypto.randomBytes(1_500_000)];
    const ids = await Promise.all(payloads.map((p) => version(p)));
    const there = await movePackages(testDb(), pg, s3Store, { skillIds: [skillId] });
    expect(there.failed.filter((f) => ids.includes(f.versionId))).toEqual([]);
    for (const [i, id] of ids.entries()) {
      expect(await pg.size(id)).toBeNull();
      expect(await s3Store.size(id)).toBe(payloads[i].byteLength);
    }
    const again = await movePackages(testDb(), pg, s3Store, { skillIds: [skillId] });
    expect(again.moved).toBe(0);
    const back = await movePackages(testDb(), s3Store, pg, { skillIds: [skillId] });
    expect(back.failed.filter((f) => ids.includes(f.versionId))).toEqual([]);
    for (const [i, id] of ids.entries()) {
      expect(await s3Store.size(id)).toBeNull();
      expect(await pg.size(id)).toBe(payloads[i].byteLength);
    }
  });

  it('leaves bytes that do not match their recorded integrity where they are, and says which', async () => {
    const pg = createPgPackageStore(testDb());
    const id = await version(crypto.randomBytes(100), 'sha512-not-these-bytes');
    const result = await movePackages(testDb(), pg, s3Store, { skillIds: [skillId] });
    expect(result.failed).toContainEqual({ versionId: id, reason: expect.stringMatching(/integrity/) });
    expect(await pg.size(id)).toBe(100);
    expect(await s3Store.size(id)).toBeNull();
  });
});
