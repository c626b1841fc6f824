// Deprecate every version that a range matches with a message (shown on the skill page
// and printed by `skillyard add`); an empty message takes the deprecation back.
import 'server-only';
import semver from 'semver';
import type { Db } from '../db';
import { AppError } from '../errors';
import { assertScopeOwner } from './assert-scope-owner';

export type DeprecateInput = { scope: string; name: string; range: string; message: string; userId: string };

export async function deprecateVersion(db: Db, input: DeprecateInput): Promise<{ versions: string[]; message: string | null }> {
  await assertScopeOwner(db, input.scope, input.userId, input.name);
  const range = semver.validRange(input.range);
  if (range === null) throw new AppError('input/invalid-range', `"${input.range.slice(0, 64)}" is not a version or a semver range.`);
  const message = input.message.trim().slice(0, 1000) || null;
  const versions = await db.skillVersion.findMany({
    where: { skill: { scopeName: input.scope, name: input.name } },
    select: { id: true, version: true },
  });
  const matched = versions.filter((v) => semver.satisfies(v.version, range, { includePrerelease: true }));
  if (matched.length === 0) throw new AppError('skill/version-not-found', `No version of @${input.scope}/${input.name} matches "${input.range.slice(0, 64)}".`);
  await db.skillVersion.updateMany({ where: { id: { in: matched.map((v) => v.id) } }, data: { deprecated: message } });
  return { versions: matched.map((v) => v.version), message };
}
