// Which store holds new package bytes: SKILLYARD_PACKAGE_STORE=postgres (the default) or
// s3 (with SKILLYARD_S3_BUCKET, and SKILLYARD_S3_ENDPOINT for a server other than AWS).
// Reads fall back to Postgres, so switching to S3 serves every version before
// `npm run packages:move` has moved the old ones.
import 'server-only';
import type { Db } from '../../db/client';
import { createPgPackageStore } from './pg-package-store';
import { createS3PackageStore, type S3StoreConfig } from './s3-package-store';
import type { PackageStore } from './types';

type Env = Record<string, string | undefined>;

export type PackageStoreConfig = { kind: 'postgres' } | ({ kind: 's3' } & S3StoreConfig);

export function packageStoreConfigFromEnv(env: Env = process.env): PackageStoreConfig {
  const kind = (env.SKILLYARD_PACKAGE_STORE ?? 'postgres').trim() || 'postgres';
  if (kind === 'postgres') return { kind };
  if (kind !== 's3') throw new Error(`SKILLYARD_PACKAGE_STORE must be "postgres" or "s3" (got "${kind}")`);
  const bucket = env.SKILLYARD_S3_BUCKET?.trim();
  if (!bucket) throw new Error('SKILLYARD_PACKAGE_STORE=s3 needs SKILLYARD_S3_BUCKET (the bucket that holds the packages)');
  return {
    kind,
    bucket,
    prefix: env.SKILLYARD_S3_PREFIX ?? 'packages/',
    region: env.SKILLYARD_S3_REGION ?? env.AWS_REGION ?? 'us-east-1',
    endpoint: env.SKILLYARD_S3_ENDPOINT?.trim() || undefined,
  };
}

export function createPackageStore(db: Db, config: PackageStoreConfig): PackageStore {
  return config.kind === 's3' ? createS3PackageStore(config) : createPgPackageStore(db);
}

const stores = new WeakMap<Db, PackageStore>();

/** The configured store for this database (built once per database handle). */
export function packageStoreFor(db: Db): PackageStore {
  let store = stores.get(db);
  if (!store) stores.set(db, (store = createPackageStore(db, packageStoreConfigFromEnv())));
  return store;
}

/** Where a version's bytes are: the configured store, else Postgres (not yet moved). */
export async function locatePackage(db: Db, versionId: string): Promise<{ store: PackageStore; size: number } | null> {
  const primary = packageStoreFor(db);
  const size = await primary.size(versionId);
  if (size !== null) return { store: primary, size };
  if (primary.kind === 'postgres') return null;
  const fallback = createPgPackageStore(db);
  const old = await fallback.size(versionId);
  return old === null ? null : { store: fallback, size: old };
}
