// Package bytes in Postgres, the embedded default: parts of at most STATEMENT_BYTES
// (TarballPart), written and read one part per statement, since the driver encodes and
// decodes a statement's values on the event loop (a 50 MB value held every other request
// for hundreds of milliseconds). A download reads READ_SLICE_BYTES of a part at a time,
// when the client asks for more (no read-ahead): what one download holds is a slice and
// what the socket has not sent yet, whatever the package's size. The slice comes as
// base64 text (`encode(substring(...))`), which the driver hands over as it is; a bytea
// column would come as hex text, be turned into bytes and then into base64 and back by
// the Prisma client, several copies of every part for each read.
// The slice comes in rows of ROW_BYTES, all decoded into the one chunk sent on: a slice as
// one 350 KB row made the driver's parser grow a buffer for it by doubling (64 KB socket
// reads -> 128 -> 256 -> 512 KB) for every slice. Rows of 128 KiB: 15-20% less CPU per
// download, the same memory; rows of 32 KiB cost 40% less CPU, but their 44 KB strings
// outlive young-generation collections while a query's rows wait, and the heap grew by
// up to 300 MB (bench:downloads, docs/benchmarks.md).
// Slices read are kept in a shared SliceCache (slice-cache.ts, SKILLYARD_PACKAGE_CACHE_BYTES).
import 'server-only';
import { setting } from '../../config';
import { AppError } from '../../errors';
import { SliceCache } from './slice-cache';
import type { ByteRange, PackageStore, Tx } from './types';

/** What one statement carries at most: a tarball part, a batch of files (publish-version.ts). */
export const STATEMENT_BYTES = 1_000_000;

/** what one read of a download fetches at most (a slice of one part) */
export const READ_SLICE_BYTES = 256 * 1024;

/** one row of a slice read (its base64 text, 175 KB, is a large object to V8: never copied by a young-generation collection) */
export const ROW_BYTES = 128 * 1024;

/** how long a download may wait for its reader before it is ended (a client that stopped reading) */
export const DOWNLOAD_IDLE_MS = 60_000;

const gone = () => new AppError('skill/tarball-not-found', 'This version was deleted while it was being downloaded.');

// one cache per process, whichever bundle creates a store
const shared = globalThis as unknown as { skillyardSliceCache?: SliceCache };
const processCache = () => (shared.skillyardSliceCache ??= new SliceCache(setting('SKILLYARD_PACKAGE_CACHE_BYTES')));

/** `cache`: where read slices are kept (default: the process's, sized by SKILLYARD_PACKAGE_CACHE_BYTES; null: none) */
export function createPgPackageStore(db: Tx, opts: { idleMs?: number; cache?: SliceCache | null } = {}): PackageStore {
  const idleMs = opts.idleMs ?? DOWNLOAD_IDLE_MS;
  const cache = () => (opts.cache === undefined ? processCache() : opts.cache);
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
      // the next byte to send, and the end (exclusive) of a range; parts are STATEMENT_BYTES
      // long but the last, so a byte's part is known without a read
      let at = range ? range.start : 0;
      const end = range ? range.end + 1 : Infinity;
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
              const index = Math.floor(at / STATEMENT_BYTES);
              const offset = at - index * STATEMENT_BYTES;
              const want = Math.min(READ_SLICE_BYTES, STATEMENT_BYTES - offset, end - at);
              const key = `${versionId}:${at}:${want}`;
              let bytes = cache()?.get(key);
              if (!bytes) {
                // the slice is read once (MATERIALIZED), then cut into rows; an empty slice is one empty row
                const rows = await db.$queryRaw<Array<{ data: string }>>`
                  WITH slice AS MATERIALIZED (
                    SELECT substring("data" from ${offset + 1}::int for ${want}::int) AS b
                    FROM "TarballPart" WHERE "versionId" = ${versionId} AND "index" = ${index}::int)
                  SELECT encode(substring(b from at for ${ROW_BYTES}::int), 'base64') AS data
                  FROM slice, generate_series(1, greatest(octet_length(b), 1), ${ROW_BYTES}::int) AS at
                  ORDER BY at`;
                if (!rows[0]) {
                  // past the last part of a whole read is its end; anything else is a version that went away
                  if (!range && index > 0 && offset === 0 && (await db.tarballPart.count({ where: { versionId } })) === index) return controller.close();
                  return controller.error(gone());
                }
                // every row decoded into one buffer: no buffer per row, no copy to join them
                const slice = Buffer.allocUnsafe(want);
                let length = 0;
                for (const row of rows) length += slice.write(row.data, length, 'base64');
                bytes = slice.subarray(0, length);
                // a slice shorter than asked: its part ends there, so a whole read is over (a range never reaches past the end)
                if (bytes.byteLength < want && range) return controller.error(gone());
                if (bytes.byteLength) cache()?.set(key, bytes);
              }
              if (bytes.byteLength) controller.enqueue(bytes);
              at += bytes.byteLength;
              if (at >= end || bytes.byteLength < want) controller.close();
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
      cache()?.forget(`${versionId}:`);
    },
  };
}
