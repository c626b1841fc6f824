// Point a dist-tag at a version (not a yanked one), or remove a tag. `latest` can be
// moved but not removed; moving it changes what listings, search and `add` show.
import 'server-only';
import semver from 'semver';
import type { Db } from '../db';
import { AppError } from '../errors';
import { assertScopeOwner } from './assert-scope-owner';
import { isValidDistTag } from './dist-tag-name';
import { refreshSkillSearch } from './refresh-skill-search';

export type SetDistTagInput = { scope: string; name: string; tag: string; version: string | null; userId: string };

export async function setDistTag(db: Db, input: SetDistTagInput): Promise<Record<string, string>> {
  if (!isValidDistTag(input.tag)) throw new AppError('input/invalid-tag', `"${input.tag.slice(0, 64)}" is not a dist-tag name.`);
  await assertScopeOwner(db, input.scope, input.userId, input.name);
  const skill = await db.skill.findUnique({ where: { scopeName_name: { scopeName: input.scope, name: input.name } }, select: { id: true } });
  if (!skill) throw new AppError('skill/not-found', `@${input.scope}/${input.name} was not found.`);
  await db.$transaction(async (tx) => {
    if (input.version === null) {
      if (input.tag === 'latest') throw new AppError('input/invalid-tag', 'The latest tag cannot be removed; point it at another version.');
      await tx.distTag.deleteMany({ where: { skillId: skill.id, tag: input.tag } });
      return;
    }
    if (semver.valid(input.version) !== input.version) throw new AppError('input/invalid-version', `"${input.version.slice(0, 64)}" is not an exact version.`);
    const v = await tx.skillVersion.findUnique({ where: { skillId_version: { skillId: skill.id, version: input.version } }, select: { id: true, yankedAt: true } });
    if (!v) throw new AppError('skill/version-not-found', `@${input.scope}/${input.name}@${input.version} does not exist.`);
    if (v.yankedAt) throw new AppError('publish/version-yanked', `@${input.scope}/${input.name}@${input.version} is yanked; a tag cannot point at it.`);
    await tx.distTag.upsert({
      where: { skillId_tag: { skillId: skill.id, tag: input.tag } },
      create: { skillId: skill.id, tag: input.tag, versionId: v.id },
      update: { versionId: v.id },
    });
    if (input.tag === 'latest') {
      await tx.skill.update({ where: { id: skill.id }, data: { latestVersionId: v.id } });
      await refreshSkillSearch(tx, skill.id);
    }
  });
  return listDistTags(db, skill.id);
}

export async function listDistTags(db: Db, skillId: string): Promise<Record<string, string>> {
  const rows = await db.distTag.findMany({ where: { skillId }, select: { tag: true, version: { select: { version: true } } }, orderBy: { tag: 'asc' } });
  return Object.fromEntries(rows.map((r) => [r.tag, r.version.version]));
}
