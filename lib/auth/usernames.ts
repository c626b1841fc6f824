// First sign-in picks a unique username, which is also the user's package scope
// `@<username>` (the Scope row is created in the same transaction). Reserved words and
// look-alikes of existing scopes are refused (scope-names.ts).
import 'server-only';
import type { Db } from '../db';
import { AppError } from '../errors';
import { findLookalikeScope } from './find-lookalike-scope';
import { lookalikeMessage, reservedScopeName } from './scope-names';

const USERNAME = /^[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){1,38}$/;

export function usernameProblem(name: string): string | null {
  if (!USERNAME.test(name)) return 'A username is 2 to 39 lowercase letters, digits or single hyphens, not starting or ending with a hyphen.';
  const reserved = reservedScopeName(name);
  if (reserved) return reserved === name ? `"${name}" is reserved.` : `"${name}" reads like the reserved "${reserved}".`;
  return null;
}

/** A suggestion from a display name or e-mail; the user may change it. */
export function suggestUsername(from: string | null | undefined): string {
  const base = (from ?? '')
    .split('@')[0]
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 39);
  return base.length >= 2 && !reservedScopeName(base) ? base : '';
}

export async function chooseUsername(db: Db, userId: string, raw: string): Promise<string> {
  const name = raw.trim().toLowerCase();
  const problem = usernameProblem(name);
  if (problem) throw new AppError('input/invalid-username', problem);
  const user = await db.user.findUnique({ where: { id: userId }, select: { handle: true } });
  if (!user) throw new AppError('auth/unauthenticated', 'Sign in first.');
  if (user.handle) throw new AppError('account/username-conflict', `Your username is already @${user.handle}.`);
  const taken = await db.scope.findUnique({ where: { name }, select: { name: true } });
  if (taken) throw new AppError('account/username-exists', `@${name} is taken.`);
  try {
    await db.$transaction(async (tx) => {
      const twin = await findLookalikeScope(tx, name);
      if (twin) throw new AppError('account/username-exists', lookalikeMessage(name, twin));
      await tx.user.update({ where: { id: userId }, data: { handle: name } });
      await tx.scope.create({ data: { name, kind: 'user', userId } });
    });
  } catch (err) {
    if ((err as { code?: string }).code === 'P2002') throw new AppError('account/username-exists', `@${name} is taken.`);
    throw err;
  }
  return name;
}
