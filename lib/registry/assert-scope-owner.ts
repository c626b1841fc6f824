// Who may publish into, yank from, tag or deprecate in a scope: the user whose own scope
// it is (`@username`), or a team's publishers, admins and owners (lib/authz).
import 'server-only';
import type { Db } from '../db';
import { AppError } from '../errors';
import { mayPublish, maySeePrivate, scopeAccess } from '../authz';
import { userPrincipal } from '../principal';

/**
 * Throws `publish/forbidden` (403) for a caller who may not act in the scope. With
 * `skillName` (an action on one skill), a caller who may not even see that skill gets
 * `skill/not-found` (404) instead, so a private skill's existence never shows.
 */
export async function assertScopeOwner(db: Db, scope: string, userId: string, skillName?: string): Promise<void> {
  try {
    await assertMayPublish(db, scope, userId);
  } catch (err) {
    if (skillName && err instanceof AppError && err.code === 'publish/forbidden' && !(await seesSkill(db, scope, skillName, userId))) {
      throw new AppError('skill/not-found', `@${scope}/${skillName} was not found.`);
    }
    throw err;
  }
}

async function seesSkill(db: Db, scope: string, name: string, userId: string): Promise<boolean> {
  const skill = await db.skill.findUnique({ where: { scopeName_name: { scopeName: scope, name } }, select: { visibility: true } });
  if (!skill) return false;
  return skill.visibility !== 'private' || maySeePrivate(await scopeAccess(db, scope, userPrincipal(userId)));
}

async function assertMayPublish(db: Db, scope: string, userId: string): Promise<void> {
  const row = await db.scope.findUnique({ where: { name: scope }, select: { kind: true, userId: true } });
  if (!row) {
    // a user whose handle is the scope but whose scope row is missing gets it now
    const user = await db.user.findUnique({ where: { id: userId }, select: { handle: true } });
    if (user?.handle === scope) {
      await db.scope.upsert({ where: { name: scope }, create: { name: scope, kind: 'user', userId }, update: {} });
      return;
    }
    throw await notYours(db, scope, userId);
  }
  if (row.kind === 'team') {
    const access = await scopeAccess(db, scope, userPrincipal(userId));
    if (mayPublish(access)) return;
    // only a member learns that the team exists (and which role they lack)
    if (access.role) throw new AppError('publish/forbidden', `Publishing into @${scope} takes the publisher role in that team (you are a ${access.role}).`);
    throw await notYours(db, scope, userId);
  }
  if (row.userId !== userId) throw await notYours(db, scope, userId);
}

/**
 * One answer for a scope that does not exist, another user's, and a team the caller is not
 * in: a dry run into `@some-team` told an outsider that the team exists.
 */
async function notYours(db: Db, scope: string, userId: string): Promise<AppError> {
  const user = await db.user.findUnique({ where: { id: userId }, select: { handle: true } });
  return new AppError('publish/forbidden', `You can only publish into your own scope (@${user?.handle ?? 'your-username'}) or a team's where you publish; @${scope} is not yours.`);
}

/** The scope a user publishes into when none is given: their username. */
export async function defaultScopeOf(db: Db, userId: string): Promise<string> {
  const user = await db.user.findUnique({ where: { id: userId }, select: { handle: true, scope: { select: { name: true } } } });
  const scope = user?.scope?.name ?? user?.handle;
  if (!scope) throw new AppError('publish/no-scope', 'Your account has no username yet; choose one in your settings, or pass --scope.');
  return scope;
}
