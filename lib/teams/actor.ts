// Who performs a team operation and from where, for authorization and the audit log.
import 'server-only';
import { AppError } from '../errors';
import type { Principal } from '../authz';

export type Actor = { principal: Principal; ip?: string | null };

/** Team management is done by people (a session or a personal API token), never by a team token. */
export function actingUser(actor: Actor): string {
  if (actor.principal.kind !== 'user') {
    throw new AppError('auth/unauthenticated', 'Sign in to manage teams.');
  }
  return actor.principal.userId;
}
