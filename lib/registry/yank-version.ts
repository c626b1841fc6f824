// Yank: the version stays downloadable by its exact number (lockfiles keep working)
// but leaves ranges, dist-tags and listings. Unyank undoes a mistaken yank. The number
// stays used either way.
import 'server-only';
import type { Db } from '../db';
import { AppError } from '../errors';
import { assertScopeOwner } from './assert-scope-owner';
import { recomputeLatest } from './recompute-latest';

export type YankInput = { scope: string; name: string; version: string; userId: string; reason?: string | null; undo?: boolean };

export async function yankVersion(db: Db, input: YankInput): Promise<{ version: string; yanked: boolean; latest: string | null }> {
  await assertScopeOwner(db, input.scope, input.userId, input.name);
  return db.$transaction(async (tx) => {
    const v = await tx.skillVersion.findFirst({
      where: { version: input.version, skill: { scopeName: input.scope, name: input.name } },
      select: { id: true, skillId: true, yankedAt: true, skill: { select: { latestVersionId: true } } },
    });
    if (!v) throw new AppError('skill/version-not-found', `@${input.scope}/${input.name}@${input.version} does not exist.`);
    if (input.undo) {
      await tx.skillVersion.update({ where: { id: v.id }, data: { yankedAt: null, yankReason: null } });
    } else {
      await tx.skillVersion.update({ where: { id: v.id }, data: { yankedAt: v.yankedAt ?? new Date(), yankReason: input.reason?.slice(0, 500) ?? null } });
      await tx.distTag.deleteMany({ where: { versionId: v.id, tag: { not: 'latest' } } });
    }
    const latest = await recomputeLatest(tx, v.skillId);
    return { version: input.version, yanked: !input.undo, latest };
  });
}
