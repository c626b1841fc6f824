// Delete a version (npm's unpublish): its files and tarball go, its number stays used
// in UsedVersionNumber so it can never be published again.
import 'server-only';
import type { Db } from '../db';
import { AppError } from '../errors';
import { assertScopeOwner } from './assert-scope-owner';
import { recomputeLatest } from './recompute-latest';
import { packageStoreFor } from './package-store';

export async function deleteVersion(db: Db, input: { scope: string; name: string; version: string; userId: string }): Promise<{ latest: string | null }> {
  await assertScopeOwner(db, input.scope, input.userId, input.name);
  const out = await db.$transaction(async (tx) => {
    const v = await tx.skillVersion.findFirst({
      where: { version: input.version, skill: { scopeName: input.scope, name: input.name } },
      select: { id: true, skillId: true },
    });
    if (!v) throw new AppError('skill/version-not-found', `@${input.scope}/${input.name}@${input.version} does not exist.`);
    await tx.skill.updateMany({ where: { id: v.skillId, latestVersionId: v.id }, data: { latestVersionId: null } });
    await tx.skillVersion.delete({ where: { id: v.id } });
    return { latest: await recomputeLatest(tx, v.skillId), versionId: v.id };
  });
  // Postgres parts went with the row (cascade); an object store's object goes after the
  // commit (a failure leaves an orphan object, never a version without its bytes)
  const store = packageStoreFor(db);
  if (store.kind !== 'postgres') await store.remove(out.versionId).catch(() => {});
  return { latest: out.latest };
}
