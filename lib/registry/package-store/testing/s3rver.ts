// An S3-compatible server for tests and benches (s3rver from npm: no real object store
// installs on these machines), on a port of its own with a throwaway folder.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { setting } from '../../../config';

export type TestS3 = { endpoint: string; bucket: string; close(): Promise<void> };

export async function startTestS3(port = setting('SKILLYARD_TEST_S3_PORT')): Promise<TestS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'skillyard-s3-'));
  const bucket = 'skillyard-packages';
  const server = new S3rver({ port, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  await server.run();
  // the SDK signs requests; s3rver checks signatures against its default key pair
  process.env.AWS_ACCESS_KEY_ID ??= 'S3RVER';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'S3RVER';
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    async close() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
