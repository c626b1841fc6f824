// The S3 package store against a real S3-compatible server (s3rver), with the same
// contract as the Postgres store.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe } from 'vitest';
import { createS3PackageStore } from './s3-package-store';
import { packageStoreContract } from './testing/store-contract';
import { startTestS3, type TestS3 } from './testing/s3rver';
import type { PackageStore } from './types';

let s3: TestS3;
let store: PackageStore;

beforeAll(async () => {
  s3 = await startTestS3();
  store = createS3PackageStore({ bucket: s3.bucket, prefix: 'packages/', region: 'us-east-1', endpoint: s3.endpoint });
});
afterAll(async () => {
  await s3.close();
});

describe('S3 package store', () => {
  packageStoreContract(
    () => store,
    async () => crypto.randomBytes(12).toString('hex'),
  );
});
