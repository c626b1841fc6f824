// Package bytes in Postgres, the embedded default: parts of at most STATEMENT_BYTES
// (TarballPart), written and read one part per statement, since the driver encodes and
// decodes a statement's values on the event loop (a 50 MB value held every other request
// for hundreds of milliseconds). A read fetches one part when the client asks for the next
// (no read-ahead): a client that reads slowly holds one part, never the package.
import 'server-only';
import { AppError } from '../../errors';
import type { ByteRange, PackageStore, Tx } from './types';

/** What one statement carries at most: a tarball part, a batch of files (publish-version.ts). */
export const STATEMENT_BYTES = 1_000_000;

/** how long a download may wait for its reader before it is ended (a client that stopped reading) */
export const DOWNLOAD_IDLE_MS = 60_000;

const gone = () => new AppError('skill/tarball-not-found', 'This version was deleted while it was being downloaded.');

export function createPgPackageStore(db: Tx, opts: { idleMs?: number } = {}): PackageStore {
  const idleMs = opts.idleMs ?? DOWNLOAD_IDLE_MS;
  return {
    kind: 'postgres',
    async put(versionId, tarball, tx = db) {
      for (let index = 0, at = 0; at < tarball.byteLength || index === 0; index++, at += STATEMENT_BYTES) {
        const data = new Uint8Array(tarball.subarray(at, at + STATEMENT_BYTES));
        await tx.tarballPart.create({ data: { versionId, index, data } });
      }
    },
    async size(versionId) {
      const rows = await db.$queryRaw<Array<{ parts: number; last: number | null; bytes: bigint | number }>>`
        SELECT count(*)::int AS parts, max("index") AS last, coalesce(sum(octet_length("data")), 0)::bigint AS bytes
        FROM "TarballPart" WHERE "versionId" = ${versionId}`;
      const row = rows[0];
      if (!row || row.parts === 0) return null;
      // the indexes are 0..n-1 by construction; a hole is a version deleted meanwhile
      if (row.last !== row.parts - 1) throw gone();
      return Number(row.bytes);
    },
    open(versionId, range?: ByteRange) {
      // parts are STATEMENT_BYTES long but the last, so a byte's part is known without a read
      let index = range ? Math.floor(range.start / STATEMENT_BYTES) : 0;
      const endIndex = range ? Math.floor(range.end / STATEMENT_BYTES) : Infinity;
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
            try {
              const row = await db.tarballPart.findUnique({ where: { versionId_index: { versionId, index } }, select: { data: true } });
              if (!row) {
                // past the last part of a whole read is its end; anything else is a version that went away
                if (!range && index > 0 && (await db.tarballPart.count({ where: { versionId } })) === index) return controller.close();
                return controller.error(gone());
              }
              const base = index * STATEMENT_BYTES;
              const from = range ? Math.max(range.start - base, 0) : 0;
              const to = range ? Math.min(range.end + 1 - base, row.data.byteLength) : row.data.byteLength;
              controller.enqueue(from === 0 && to === row.data.byteLength ? row.data : row.data.subarray(from, to));
              index++;
              // a whole read ends at a part shorter than a full one (or at the next, missing one)
              if (index > endIndex || (!range && row.data.byteLength < STATEMENT_BYTES)) controller.close();
              else idle(controller);
            } catch (err) {
              controller.error(err);
            }
          },
          cancel() {
            clearTimeout(timer);
          },
        },
        { highWaterMark: 0 },
      );
    },
    async remove(versionId) {
      await db.tarballPart.deleteMany({ where: { versionId } });
    },
  };
}
