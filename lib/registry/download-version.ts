// A version's .tar.gz for `skillyard add` and the API: resolved from an exact number,
// a tag or a range, with its integrity; a download is counted on the version and on the
// skill once per caller per day (count-download.ts). The bytes are a stream read from
// storage part by part as the client reads them (tarball-parts.ts): a download never
// holds the whole package in memory.
import 'server-only';
import type { Db } from '../db/client';
import { AppError } from '../errors';
import type { Viewer } from './get-skill';
import { findVisibleSkill } from './find-visible-skill';
import { resolveVersion } from './resolve-version';
import { tarballPartsSize, tarballPartsStream } from './tarball-parts';
import { countDownload } from './count-download';

export type Download = {
  scope: string;
  name: string;
  version: string;
  integrity: string;
  /** the tarball's length in bytes */
  size: number;
  /** the tarball, read part by part when pulled (one body: read it once) */
  body: ReadableStream<Uint8Array>;
  yanked: boolean;
  deprecated: string | null;
};

/** `callerKey`: who is downloading (their rate-limit key), for the count; null counts nothing. */
export async function downloadVersion(db: Db, ref: { scope: string; name: string; spec?: string | null }, viewer: Viewer, callerKey: string | null = null): Promise<Download> {
  const skill = await findVisibleSkill(db, ref, viewer);
  const resolved = await resolveVersion(db, skill, ref.spec);
  // in parts (tarball-parts.ts); a version stored whole before them has it in its column
  // (empty since the backfill migration, which moved every one into parts)
  const row = await db.skillVersion.findUnique({ where: { id: resolved.id }, select: { integrity: true } });
  const stored = await tarballPartsSize(db, resolved.id);
  let size = stored?.bytes ?? 0;
  let open: (() => ReadableStream<Uint8Array>) | null = stored ? () => tarballPartsStream(db, resolved.id, stored.parts) : null;
  if (!stored) {
    const legacy = (await db.skillVersion.findUnique({ where: { id: resolved.id }, select: { tarball: true } }))?.tarball ?? null;
    if (legacy) {
      size = legacy.byteLength;
      open = () => new ReadableStream({ start: (c) => (c.enqueue(new Uint8Array(legacy)), c.close()) });
    }
  }
  if (!open || !row?.integrity) {
    throw new AppError('skill/tarball-not-found', `@${ref.scope}/${ref.name}@${resolved.version} was stored before tarballs were kept; publish a new version.`);
  }
  if (callerKey) countDownload(db, { versionId: resolved.id, callerKey });
  return {
    scope: skill.scopeName,
    name: skill.name,
    version: resolved.version,
    integrity: row.integrity,
    size,
    body: open(),
    yanked: resolved.yanked,
    deprecated: resolved.deprecated,
  };
}
