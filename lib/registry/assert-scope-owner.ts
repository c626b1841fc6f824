// Who may publish into, yank from, tag or deprecate in a scope: for now the user whose
// own scope it is (`@username`). Team scopes come with the teams work.
import type { Db } from '../db/client';
import { AppError } from '../errors';

export async function assertScopeOwner(db: Db, scope: string, userId: string): Promise<void> {
  const row = await db.scope.findUnique({ where: { name: scope }, select: { kind: true, userId: true } });
  if (!row) {
    // a user whose handle is the scope but whose scope row is missing gets it now
    const user = await db.user.findUnique({ where: { id: userId }, select: { handle: true } });
    if (user?.handle === scope) {
      await db.scope.upsert({ where: { name: scope }, create: { name: scope, kind: 'user', userId }, update: {} });
      return;
    }
    throw new AppError('publish/forbidden', `You can only publish into your own scope (@${user?.handle ?? 'your-username'}); @${scope} is not yours.`, 403);
  }
  if (row.kind === 'team') throw new AppError('publish/forbidden', `@${scope} is a team scope; publishing into team scopes is not open yet.`, 403);
  if (row.userId !== userId) throw new AppError('publish/forbidden', `@${scope} belongs to another user; you can only publish into your own scope.`, 403);
}

/** The scope a user publishes into when none is given: their username. */
export async function defaultScopeOf(db: Db, userId: string): Promise<string> {
  const user = await db.user.findUnique({ where: { id: userId }, select: { handle: true, scope: { select: { name: true } } } });
  const scope = user?.scope?.name ?? user?.handle;
  if (!scope) throw new AppError('publish/no-scope', 'Your account has no username yet; choose one in your settings, or pass --scope.', 400);
  return scope;
}
