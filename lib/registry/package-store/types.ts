// Where the bytes of published versions live. The Postgres store (tarball parts in the
// database) is the embedded default; an S3-compatible store is chosen by configuration
// (docs/deploy.md). Either way the database keeps the version's integrity, so a byte
// changed in storage fails `skillyard add`'s check.
import 'server-only';
import type { Db } from '../../db';

/** the database or a transaction on it (publish stores inside its transaction) */
export type Tx = Pick<Db, 'tarballPart' | '$queryRaw' | '$executeRaw'>;

/** an inclusive byte range, as HTTP's Range header says it */
export type ByteRange = { start: number; end: number };

export interface PackageStore {
  readonly kind: 'postgres' | 's3';
  /** stores a version's tarball; the Postgres store writes inside `tx` (the publish transaction) */
  put(versionId: string, tarball: Uint8Array, tx?: Tx): Promise<void>;
  /** the stored tarball's length, or null when this store has none for the version */
  size(versionId: string): Promise<number | null>;
  /** the tarball (or one range of it), read as the client reads it: never the whole package in memory */
  open(versionId: string, range?: ByteRange): ReadableStream<Uint8Array>;
  remove(versionId: string): Promise<void>;
}
