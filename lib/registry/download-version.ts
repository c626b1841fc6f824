// A version's .tar.gz for `skillyard add` and the API: resolved from an exact number,
// a tag or a range, with its integrity; a download is counted on the version and on the
// skill once per caller per day (count-download.ts).
import 'server-only';
import type { Db } from '../db/client';
import { AppError } from '../errors';
import type { Viewer } from './get-skill';
import { findVisibleSkill } from './find-visible-skill';
import { resolveVersion } from './resolve-version';
import { readTarballParts } from './tarball-parts';
import { countDownload } from './count-download';

export type Download = {
  scope: string;
  name: string;
  version: string;
  integrity: string;
  tarball: Uint8Array;
  yanked: boolean;
  deprecated: string | null;
};

/** `callerKey`: who is downloading (their rate-limit key), for the count; null counts nothing. */
export async function downloadVersion(db: Db, ref: { scope: string; name: string; spec?: string | null }, viewer: Viewer, callerKey: string | null = null): Promise<Download> {
  const skill = await findVisibleSkill(db, ref, viewer);
  const resolved = await resolveVersion(db, skill, ref.spec);
  // in parts (tarball-parts.ts); a version stored whole before them has it in its column
  // (empty since the backfill migration, which moved every one into parts)
  const row = await db.skillVersion.findUnique({ where: { id: resolved.id }, select: { integrity: true, tarball: true } });
  const tarball = (await readTarballParts(db, resolved.id)) ?? row?.tarball ?? null;
  if (!tarball || !row?.integrity) {
    throw new AppError('skill/tarball-not-found', `@${ref.scope}/${ref.name}@${resolved.version} was stored before tarballs were kept; publish a new version.`);
  }
  if (callerKey) countDownload(db, { versionId: resolved.id, callerKey });
  return {
    scope: skill.scopeName,
    name: skill.name,
    version: resolved.version,
    integrity: row.integrity,
    tarball,
    yanked: resolved.yanked,
    deprecated: resolved.deprecated,
  };
}
