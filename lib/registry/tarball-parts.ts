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
 * How the tarball of `versionId` is stored: its part count and total bytes (one statement,
 * no part read), or null when it has none. Parts missing in between (the version was
 * deleted while it was read) are the version not being there.
 */
export async function tarballPartsSize(db: Tx, versionId: string): Promise<{ parts: number; bytes: number } | null> {
  const rows = await db.$queryRaw<Array<{ parts: number; last: number | null; bytes: bigint | number }>>`
    SELECT count(*)::int AS parts, max("index") AS last, coalesce(sum(octet_length("data")), 0)::bigint AS bytes
    FROM "TarballPart" WHERE "versionId" = ${versionId}`;
  const row = rows[0];
  if (!row || row.parts === 0) return null;
  // the indexes are 0..n-1 by construction
  if (row.last !== row.parts - 1) throw gone();
  return { parts: row.parts, bytes: Number(row.bytes) };
}

const gone = () => new AppError('skill/tarball-not-found', 'This version was deleted while it was being downloaded.');

/** how long a download may wait for its reader before it is ended (a client that stopped reading) */
export const DOWNLOAD_IDLE_MS = 60_000;

/**
 * The parts of `versionId` as a stream, read one statement per part and only when the reader
 * asks for the next (no read-ahead: a client that reads slowly holds one part, not the
 * package). A reader that asks for nothing for `idleMs` gets an error (the response ends).
 */
export function tarballPartsStream(db: Tx, versionId: string, parts: number, idleMs = DOWNLOAD_IDLE_MS): ReadableStream<Uint8Array> {
  let next = 0;
  let timer: NodeJS.Timeout | undefined;
  const idle = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    clearTimeout(timer);
    timer = setTimeout(() => controller.error(new Error(`the download stalled: nothing was read for ${Math.round(idleMs / 1000)} s`)), idleMs);
    timer.unref?.();
  };
  return new ReadableStream<Uint8Array>(
    {
      start: idle,
      async pull(controller) {
        clearTimeout(timer);
        const row = await db.tarballPart.findUnique({ where: { versionId_index: { versionId, index: next } }, select: { data: true } });
        if (!row) return controller.error(gone());
        next++;
        controller.enqueue(row.data);
        if (next >= parts) controller.close();
        else idle(controller);
      },
      cancel() {
        clearTimeout(timer);
      },
    },
    { highWaterMark: 0 },
  );
}

/** Reads a whole stream into one array (tests, small tarballs). */
export async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  const reader = stream.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value);
  const joined = Buffer.concat(chunks);
  return new Uint8Array(joined.buffer, joined.byteOffset, joined.byteLength);
}
