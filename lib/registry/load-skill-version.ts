// A stored version as the runtime wants it: manifest plus lazy, cached file reads.
import 'server-only';
import type { Db } from '../db';
import type { LoadedSkill } from '../runtime';
import { skillRefOf, type SkillManifest, type SkillRef } from '../skills';
import { AppError } from '../errors';
import { canSeePrivate, type Viewer } from './get-skill';

export type { SkillRef };

/** `@scope/name` or `@scope/name@1.2.3` (the leading @ is optional). */
export function parseSkillRef(text: string): SkillRef {
  const ref = skillRefOf(text);
  if (!ref) throw new AppError('input/invalid-skill-ref', `"${text}" is not a skill reference like @scope/name or @scope/name@1.0.0.`);
  return ref;
}

/** The skill row a version lookup starts from (callers that already read it pass it in). */
export type SkillHead = { id: string; visibility: string; latestVersionId: string | null };

type StoredVersion = { id: string; version: string; manifest: unknown };

// A version's manifest never changes once stored, so the latest version of a skill is read
// from the database once per process (keyed by the version's id, which the skill row names
// fresh on every call). Bounded; explicitly numbered versions are always read.
const versionsById = new Map<string, StoredVersion>();
const MAX_CACHED_VERSIONS = 500;

function remember(v: StoredVersion): void {
  versionsById.delete(v.id);
  versionsById.set(v.id, v);
  if (versionsById.size > MAX_CACHED_VERSIONS) versionsById.delete(versionsById.keys().next().value as string);
}

export async function loadSkillVersion(db: Db, ref: SkillRef, viewer: Viewer, head?: SkillHead): Promise<LoadedSkill & { ref: string; version: string }> {
  const label = `@${ref.scope}/${ref.name}`;
  const skill =
    head ??
    (await db.skill.findUnique({
      where: { scopeName_name: { scopeName: ref.scope, name: ref.name } },
      select: { id: true, visibility: true, latestVersionId: true },
    }));
  if (!skill || (skill.visibility === 'private' && !(await canSeePrivate(db, ref.scope, viewer)))) {
    throw new AppError('skill/not-found', `${label} was not found.`);
  }
  let version: StoredVersion | null = !ref.version && skill.latestVersionId ? (versionsById.get(skill.latestVersionId) ?? null) : null;
  if (!version) {
    version = await db.skillVersion.findFirst({
      where: ref.version ? { skillId: skill.id, version: ref.version } : { id: skill.latestVersionId ?? '' },
      select: { id: true, version: true, manifest: true },
    });
    if (version && !ref.version) remember(version);
  }
  if (!version) throw new AppError('skill/version-not-found', `${label}@${ref.version ?? 'latest'} was not found.`);
  const versionId = version.id;
  const cache = new Map<string, Promise<string>>();
  return {
    ref: label,
    version: version.version,
    scope: ref.scope,
    revision: versionId,
    identity: skill.id,
    manifest: version.manifest as unknown as SkillManifest,
    readFile(path: string) {
      let pending = cache.get(path);
      if (!pending) {
        pending = db.skillFile.findUnique({ where: { versionId_path: { versionId, path } }, select: { content: true } }).then((row) => {
          if (!row) throw new AppError('skill/file-not-found', `${label} has no file ${path}.`);
          return Buffer.from(row.content).toString('utf8');
        });
        cache.set(path, pending);
      }
      return pending;
    },
    // bytes for a subprocess handler's package copy (fonts, images stay intact)
    readBytes(path: string) {
      return db.skillFile.findUnique({ where: { versionId_path: { versionId, path } }, select: { content: true } }).then((row) => {
        if (!row) throw new AppError('skill/file-not-found', `${label} has no file ${path}.`);
        return new Uint8Array(row.content);
      });
    },
  };
}
