// A registry configured for S3 (SKILLYARD_PACKAGE_STORE=s3, against s3rver): publish
// writes the object and no Postgres parts, a download streams it back intact (whole and a
// range), a version still in Postgres is served by the fallback, and deleting a version
// removes its object.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl, testDb } from '../../../test/db';
import { publishVersion } from '../publish-version';
import { downloadVersion } from '../download-version';
import { deleteVersion } from '../delete-version';
import { readUpload } from '../read-upload';
import { checkIntegrity } from '../package-tarball';
import { createPgPackageStore } from './pg-package-store';
import { packageStoreFor } from './select-package-store';
import { readAll } from './read-all';
import { startTestS3, type TestS3 } from './testing/s3rver';

let s3: TestS3;
const scope = `s3pub-${crypto.randomBytes(3).toString('hex')}`;
let userId = '';

beforeAll(async () => {
  process.env.DATABASE_URL = testDatabaseUrl();
  s3 = await startTestS3(Number(process.env.SKILLYARD_TEST_S3_PORT ?? 54350) + 2);
  Object.assign(process.env, { SKILLYARD_PACKAGE_STORE: 's3', SKILLYARD_S3_BUCKET: s3.bucket, SKILLYARD_S3_ENDPOINT: s3.endpoint, SKILLYARD_S3_PREFIX: `${scope}/` });
  userId = (await testDb().user.create({ data: { handle: scope, name: scope } })).id;
  await testDb().scope.create({ data: { name: scope, kind: 'user', userId } });
});
afterAll(async () => {
  await s3.close();
});

function upload(name: string) {
  const md = `---\nname: ${name}\ndescription: Kept in an object store.\n---\n\n# ${name}\n\nHello.\n`;
  const pkg = readUpload({
    kind: 'files',
    files: [
      { path: `${name}/SKILL.md`, content: new TextEncoder().encode(md) },
      { path: `${name}/data.txt`, content: new TextEncoder().encode(crypto.randomBytes(1_200_000).toString('base64')) },
    ],
  });
  if (!pkg.manifest) throw new Error(JSON.stringify(pkg.diagnostics));
  return { manifest: pkg.manifest, files: pkg.files };
}

describe('publishing into S3', () => {
  it('stores the object, not Postgres parts, and serves it whole and by range', async () => {
    expect(packageStoreFor(testDb()).kind).toBe('s3');
    const out = await publishVersion(testDb(), { scope, ...upload('in-bucket'), version: '1.0.0', publishedById: userId });
    expect(await testDb().tarballPart.count({ where: { versionId: out.versionId } })).toBe(0);
    const dl = await downloadVersion(testDb(), { scope, name: 'in-bucket', spec: '1.0.0' }, null);
    const whole = await readAll(dl.open());
    expect(whole.byteLength).toBe(dl.size);
    expect(checkIntegrity(whole, out.integrity)).toBe(true);
    const part = await readAll((await downloadVersion(testDb(), { scope, name: 'in-bucket', spec: '1.0.0' }, null)).open({ start: 5, end: 1_000_004 }));
    expect(Buffer.from(part).equals(Buffer.from(whole.subarray(5, 1_000_005)))).toBe(true);

    await deleteVersion(testDb(), { scope, name: 'in-bucket', version: '1.0.0', userId });
    expect(await packageStoreFor(testDb()).size(out.versionId)).toBeNull();
  });

  it('serves a version whose bytes are still in Postgres (not moved yet)', async () => {
    const out = await publishVersion(testDb(), { scope, ...upload('not-moved'), version: '1.0.0', publishedById: userId });
    // as a version published before the switch: bytes in Postgres, none in the bucket
    const bytes = await readAll(packageStoreFor(testDb()).open(out.versionId));
    await createPgPackageStore(testDb()).put(out.versionId, bytes);
    await packageStoreFor(testDb()).remove(out.versionId);
    const dl = await downloadVersion(testDb(), { scope, name: 'not-moved', spec: '1.0.0' }, null);
    expect(checkIntegrity(await readAll(dl.open()), out.integrity)).toBe(true);
  });
});
