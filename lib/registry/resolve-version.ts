// Which stored version a spec names: an exact number (yanked ones too: a lockfile that
// names one keeps working), a dist-tag (`latest`, `next`), or a semver range (the
// highest version that satisfies it, never a yanked one). No spec means `latest`.
import 'server-only';
import semver from 'semver';
import type { Db } from '../db';
import { AppError } from '../errors';

export type ResolvedVersion = { id: string; version: string; yanked: boolean; deprecated: string | null; via: 'exact' | 'tag' | 'range' };

export async function resolveVersion(db: Db, skill: { id: string; scopeName: string; name: string }, spec?: string | null): Promise<ResolvedVersion> {
  const label = `@${skill.scopeName}/${skill.name}`;
  const wanted = (spec ?? '').trim() || 'latest';
  const select = { id: true, version: true, yankedAt: true, deprecated: true } as const;
  const out = (v: { id: string; version: string; yankedAt: Date | null; deprecated: string | null }, via: ResolvedVersion['via']) => ({
    id: v.id,
    version: v.version,
    yanked: v.yankedAt !== null,
    deprecated: v.deprecated,
    via,
  });
  if (semver.valid(wanted) === wanted) {
    const v = await db.skillVersion.findUnique({ where: { skillId_version: { skillId: skill.id, version: wanted } }, select });
    if (!v) throw new AppError('skill/version-not-found', `${label}@${wanted} does not exist.`);
    return out(v, 'exact');
  }
  const range = semver.validRange(wanted);
  if (range === null) {
    const tag = await db.distTag.findUnique({ where: { skillId_tag: { skillId: skill.id, tag: wanted } }, select: { version: { select } } });
    if (!tag || tag.version.yankedAt) throw new AppError('skill/version-not-found', `${label} has no version tagged "${wanted.slice(0, 64)}".`);
    return out(tag.version, 'tag');
  }
  const versions = await db.skillVersion.findMany({ where: { skillId: skill.id, yankedAt: null }, select });
  const best = semver.maxSatisfying(
    versions.map((v) => v.version),
    range,
  );
  if (!best) throw new AppError('skill/version-not-found', `No version of ${label} satisfies "${wanted.slice(0, 64)}".`);
  return out(
    versions.find((v) => v.version === best)!,
    'range',
  );
}
