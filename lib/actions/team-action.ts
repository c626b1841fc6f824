// Team server actions and pages: the action chain (server-action.ts) with the signed-in
// person and their address as the team operation's actor (authorization and audit log).
import 'server-only';
import { currentUser } from '../session';
import type { Db } from '../db';
import { userPrincipal } from '../principal';
import { serverContext } from '../server';
import type { Actor } from '../teams';
import { serverAction, type ActionState as ChainState } from './server-action';

export type ActionState = ChainState<{ message: string | null; secret: string | null }> & { ok: boolean };
export const IDLE: ActionState = { ok: false, error: null };

export async function teamAction(run: (db: Db, actor: Actor) => Promise<{ message?: string | null; secret?: string | null } | void>): Promise<ActionState> {
  const state = await serverAction({ name: 'team action', signedIn: { message: 'Sign in first.' } }, (_input: undefined, ctx) =>
    run(ctx.db, { principal: ctx.principal, ip: ctx.address }),
  )();
  return { ...state, ok: state.ok === true };
}

/** Reads a team page's data for the signed-in user (null: not signed in). */
export async function forSignedInUser<T>(load: (db: Db, actor: Actor) => Promise<T>): Promise<T | null> {
  const user = await currentUser();
  if (!user) return null;
  return load(serverContext().db, { principal: userPrincipal(user.id) });
}
