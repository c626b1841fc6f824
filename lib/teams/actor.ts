// Who performs a team operation and from where, for authorization and the audit log.
import 'server-only';
import type { Db } from '../db';
import { AppError } from '../errors';
import type { Principal } from '../principal';

export type Actor = { principal: Principal; ip?: string | null };

const NOT_A_PERSON = 'A team API token cannot manage teams: sign in, or use a personal API token with the "teams" scope.';

/** Team management is done by people (a session or a personal API token), never by a team token. */
export function actingUser(actor: Actor): string {
  if (actor.principal.kind === 'anonymous') {
    throw new AppError('auth/unauthenticated', 'Sign in to manage teams.');
  }
  return actor.principal.userId;
}

/**
 * actingUser, and the user is a person: a team's service account (the user its API tokens
 * act as, `botForTeamId`) is refused however it got here, so no path that forgets to ask
 * "is this a team token?" lets one read a workspace, create a team or accept an invitation.
 */
export async function actingPerson(db: Pick<Db, 'user'>, actor: Actor): Promise<string> {
  const userId = actingUser(actor);
  const user = await db.user.findUnique({ where: { id: userId }, select: { botForTeamId: true } });
  if (!user) throw new AppError('auth/unauthenticated', 'Sign in to manage teams.');
  if (user.botForTeamId) throw new AppError('auth/forbidden', NOT_A_PERSON);
  return userId;
}

/** For a check that already read the user's row (teamForActor). */
export function refuseTeamServiceAccount(botForTeamId: string | null | undefined): void {
  if (botForTeamId) throw new AppError('auth/forbidden', NOT_A_PERSON);
}
