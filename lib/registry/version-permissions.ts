// What one version may do (lib/trust's summary of its stored manifest), and the difference
// between two versions of a skill, as a viewer may see them.
import 'server-only';
import type { Db } from '../db';
import { AppError } from '../errors';
import type { SkillManifest } from '../skills';
import { diffPermissions, diffSentences, permissionFacts, summarizePermissions, type PermissionDiff, type PermissionFact, type PermissionSummary } from '../trust';
import { findVisibleSkill, type VisibleSkill } from './find-visible-skill';
import { resolveVersion } from './resolve-version';
import type { Viewer } from './get-skill';

export type VersionPermissions = { version: string; permissions: PermissionSummary; facts: PermissionFact[] };
export type VersionPermissionDiff = PermissionDiff & { from: string; to: string; sentences: string[] };

async function permissionsAt(db: Db, skill: VisibleSkill, spec: string): Promise<VersionPermissions> {
  const v = await resolveVersion(db, skill, spec);
  const row = await db.skillVersion.findUnique({ where: { id: v.id }, select: { manifest: true } });
  if (!row) throw new AppError('skill/version-not-found', `@${skill.scopeName}/${skill.name}@${spec} does not exist.`);
  const permissions = summarizePermissions(row.manifest as unknown as SkillManifest);
  return { version: v.version, permissions, facts: permissionFacts(permissions) };
}

export async function getVersionPermissions(db: Db, ref: { scope: string; name: string; version: string }, viewer: Viewer): Promise<VersionPermissions> {
  return permissionsAt(db, await findVisibleSkill(db, ref, viewer), ref.version);
}

/** From `from` to `to` (each an exact version, a dist-tag or a range). */
export async function diffVersionPermissions(db: Db, ref: { scope: string; name: string; from: string; to: string }, viewer: Viewer): Promise<VersionPermissionDiff> {
  const skill = await findVisibleSkill(db, ref, viewer);
  const [a, b] = await Promise.all([permissionsAt(db, skill, ref.from), permissionsAt(db, skill, ref.to)]);
  const diff = diffPermissions(a.permissions, b.permissions);
  return { from: a.version, to: b.version, ...diff, sentences: diffSentences(diff, b.version) };
}
