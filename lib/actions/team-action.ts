// The one path of every team server action: same-origin check (CSRF), the signed-in
// user, the caller's IP for the audit log, then the operation. Expected failures come
// back as a message for the form; unexpected ones are logged and answered generically.
import 'server-only';
import { headers } from 'next/headers';
import { currentUser } from '../auth/current-user';
import { assertSameOrigin } from '../auth/same-origin';
import { db, type Db } from '../db/client';
import { isAppError } from '../errors';
import { log } from '../log';
import type { Actor } from '../teams';
import { clientAddressOf, userPrincipal } from '../principal';

export type ActionState = { ok: boolean; error: string | null; message?: string | null; secret?: string | null };
export const IDLE: ActionState = { ok: false, error: null };

export async function teamAction(run: (db: Db, actor: Actor) => Promise<Partial<ActionState> | void>): Promise<ActionState> {
  try {
    await assertSameOrigin();
    const user = await currentUser();
    if (!user) return { ok: false, error: 'Sign in first.' };
    const h = await headers();
    const ip = clientAddressOf(h);
    const out = await run(db(), { principal: userPrincipal(user.id), ip });
    return { ok: true, error: null, ...(out ?? {}) };
  } catch (err) {
    if (isAppError(err)) return { ok: false, error: err.message };
    if (err && typeof err === 'object' && 'digest' in err) throw err; // redirect() and notFound()
    log.error('team action failed', { err });
    return { ok: false, error: 'Something went wrong on our side; try again.' };
  }
}

/** Reads a team page's data for the signed-in user (null: not signed in). */
export async function forSignedInUser<T>(load: (db: Db, actor: Actor) => Promise<T>): Promise<T | null> {
  const user = await currentUser();
  if (!user) return null;
  return load(db(), { principal: userPrincipal(user.id) });
}
