// A version's .tar.gz for `skillyard add` and the API: resolved from an exact number,
// a tag or a range, with its integrity; a download is counted once per caller per day
// (count-download.ts). The bytes are a stream from the package store (package-store/),
// read as the client reads them, whole or one byte range: a download never holds the
// whole package in memory.
import 'server-only';
import type { Db } from '../db';
import { AppError } from '../errors';
import type { Viewer } from './get-skill';
import { findVisibleSkill } from './find-visible-skill';
import { resolveVersion } from './resolve-version';
import { locatePackage, type ByteRange } from './package-store';
import { countDownload } from './count-download';

export type Download = {
  scope: string;
  name: string;
  version: string;
  /** the spec asked for was this exact version (not a tag or a range): its bytes never change */
  exact: boolean;
  /** anyone may download it (public skill): caches may keep it */
  public: boolean;
  integrity: string;
  /** the whole tarball's length in bytes */
  size: number;
  /** the tarball (or the range asked for), read when pulled; call once */
  open(range?: ByteRange): ReadableStream<Uint8Array>;
  yanked: boolean;
  deprecated: string | null;
};

/**
 * A version stored whole in its row before the package stores (the backfill migration
 * moved every one into parts; kept so a database restored from an older backup serves).
 */
async function legacyColumn(db: Db, versionId: string) {
  const tarball = (await db.skillVersion.findUnique({ where: { id: versionId }, select: { tarball: true } }))?.tarball ?? null;
  if (!tarball) return null;
  const bytes = new Uint8Array(tarball);
  const slice = (range?: ByteRange) => (range ? bytes.subarray(range.start, range.end + 1) : bytes);
  return {
    size: bytes.byteLength,
    store: { open: (_id: string, range?: ByteRange) => new ReadableStream<Uint8Array>({ start: (c) => (c.enqueue(slice(range)), c.close()) }) },
  };
}

/** `callerKey`: who is downloading (their rate-limit key), for the count; null counts nothing. */
export async function downloadVersion(db: Db, ref: { scope: string; name: string; spec?: string | null }, viewer: Viewer, callerKey: string | null = null): Promise<Download> {
  const skill = await findVisibleSkill(db, ref, viewer);
  const resolved = await resolveVersion(db, skill, ref.spec);
  const row = await db.skillVersion.findUnique({ where: { id: resolved.id }, select: { integrity: true } });
  const located = (await locatePackage(db, resolved.id)) ?? (await legacyColumn(db, resolved.id));
  if (!located || !row?.integrity) {
    throw new AppError('skill/tarball-not-found', `@${ref.scope}/${ref.name}@${resolved.version} was stored before tarballs were kept; publish a new version.`);
  }
  if (callerKey) countDownload(db, { versionId: resolved.id, callerKey });
  return {
    scope: skill.scopeName,
    name: skill.name,
    version: resolved.version,
    exact: ref.spec === resolved.version,
    public: skill.visibility === 'public',
    integrity: row.integrity,
    size: located.size,
    open: (range) => located.store.open(resolved.id, range),
    yanked: resolved.yanked,
    deprecated: resolved.deprecated,
  };
}
