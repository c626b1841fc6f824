// lib/registry/package-store: where the bytes of published versions live (Postgres by
// default, S3-compatible by configuration) and the move between them.
import 'server-only';
export type { ByteRange, PackageStore } from './types';
export { createPgPackageStore, DOWNLOAD_IDLE_MS, READ_SLICE_BYTES, STATEMENT_BYTES } from './pg-package-store';
export { createS3PackageStore, type S3StoreConfig } from './s3-package-store';
export { createPackageStore, locatePackage, packageStoreConfigFromEnv, packageStoreFor, type PackageStoreConfig } from './select-package-store';
export { movePackages, type MoveResult } from './move-packages';
export { readAll } from './read-all';
export { parseRange, type RangeAnswer } from './http-range';
