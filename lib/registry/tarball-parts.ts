// A version's .tar.gz is stored in parts of at most a megabyte (TarballPart), written and
// read one part per statement: the database driver encodes a statement's parameters and
// decodes a row's values on the event loop, so a 50 MB tarball in one value held every
// other request for hundreds of milliseconds (12 MB: 80 ms), a megabyte for a few.
import 'server-only';
import type { Db } from '../db/client';
import { AppError } from '../errors';
import type { Prisma } from '../db/generated/client';

/** What one statement carries at most: a tarball part, a batch of files (publish-version.ts). */
export const STATEMENT_BYTES = 1_000_000;

type Tx = Prisma.TransactionClient | Db;

/** Stores `tarball` for `versionId` as parts 0, 1, ...; one statement (and one event-loop turn) per part. */
export async function storeTarballParts(tx: Tx, versionId: string, tarball: Uint8Array): Promise<void> {
  for (let index = 0, at = 0; at < tarball.byteLength || index === 0; index++, at += STATEMENT_BYTES) {
    const data = new Uint8Array(tarball.subarray(at, at + STATEMENT_BYTES));
    await tx.tarballPart.create({ data: { versionId, index, data } });
  }
}

/**
 * The tarball of `versionId` from its parts (one copy: the parts are joined once), or null
 * when it has none. A part that vanished meanwhile (the version was deleted while it was
 * read) is the version not being there.
 */
export async function readTarballParts(db: Tx, versionId: string): Promise<Uint8Array | null> {
  const parts = await db.tarballPart.findMany({ where: { versionId }, select: { index: true }, orderBy: { index: 'asc' } });
  if (parts.length === 0) return null;
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < parts.length; i++) {
    // the indexes are 0..n-1 by construction
    const row = parts[i].index === i ? await db.tarballPart.findUnique({ where: { versionId_index: { versionId, index: i } }, select: { data: true } }) : null;
    if (!row) throw new AppError('skill/tarball-not-found', 'This version was deleted while it was being downloaded.');
    chunks.push(row.data);
  }
  const joined = Buffer.concat(chunks);
  return new Uint8Array(joined.buffer, joined.byteOffset, joined.byteLength);
}
