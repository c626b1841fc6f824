// A version's evidence and provenance as a viewer may see them (a private skill's are as
// missing as the skill itself to anyone outside its scope).
import 'server-only';
import type { Db } from '../db';
import { AppError } from '../errors';
import { trustOf, type VersionTrust } from '../evidence';
import { findVisibleSkill } from './find-visible-skill';
import type { Viewer } from './get-skill';
import { resolveVersion } from './resolve-version';

export async function getVersionTrust(db: Db, ref: { scope: string; name: string; version?: string | null }, viewer: Viewer): Promise<VersionTrust> {
  const skill = await findVisibleSkill(db, ref, viewer);
  const resolved = await resolveVersion(db, skill, ref.version ?? null);
  return versionTrustById(db, { scope: skill.scopeName, name: skill.name, versionId: resolved.id });
}

/** The trust of a version the caller has already found and checked the viewer may see (the skill page: readSkillDetail). */
export async function versionTrustById(db: Db, ref: { scope: string; name: string; versionId: string }): Promise<VersionTrust> {
  const row = await db.skillVersion.findUnique({
    where: { id: ref.versionId },
    select: { version: true, evidence: true, provenance: true },
  });
  if (!row) throw new AppError('skill/version-not-found', `A version of @${ref.scope}/${ref.name} was not found.`);
  return { scope: ref.scope, name: ref.name, version: row.version, ...trustOf(row) };
}
