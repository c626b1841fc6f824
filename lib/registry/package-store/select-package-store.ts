// Which store holds new package bytes: SKILLYARD_PACKAGE_STORE=postgres (the default) or
// s3 (with SKILLYARD_S3_BUCKET, and SKILLYARD_S3_ENDPOINT for a server other than AWS).
// Reads fall back to Postgres, so switching to S3 serves every version before
// `npm run packages:move` has moved the old ones.
import 'server-only';
import type { Db } from '../../db';
import { createPgPackageStore } from './pg-package-store';
import { createS3PackageStore, type S3StoreConfig } from './s3-package-store';
import type { PackageStore } from './types';
import { setting, type Env } from '../../config';

export type PackageStoreConfig = { kind: 'postgres' } | ({ kind: 's3' } & S3StoreConfig);

export function packageStoreConfigFromEnv(env?: Env): PackageStoreConfig {
  const kind = setting('SKILLYARD_PACKAGE_STORE', env);
  if (kind === 'postgres') return { kind };
  const bucket = setting('SKILLYARD_S3_BUCKET', env)?.trim();
  if (!bucket) throw new Error('SKILLYARD_PACKAGE_STORE=s3 needs SKILLYARD_S3_BUCKET (the bucket that holds the packages)');
  return {
    kind,
    bucket,
    prefix: setting('SKILLYARD_S3_PREFIX', env),
    region: setting('SKILLYARD_S3_REGION', env) ?? setting('AWS_REGION', env) ?? 'us-east-1',
    endpoint: setting('SKILLYARD_S3_ENDPOINT', env)?.trim() || undefined,
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
