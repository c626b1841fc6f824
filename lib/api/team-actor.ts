// The actor of a team route: the signed-in person (a session or a personal API token with
// the `teams` scope) and the client address for the audit log.
import 'server-only';
import type { ApiContext } from './with-api';
import { requireScope, requireUser } from '../principal';
import { AppError } from '../errors';
import type { Actor } from '../teams';

type Ctx = Pick<ApiContext<unknown, unknown>, 'principal' | 'caller'>;

/** The actor of any authenticated action, for a team's audit log (no scope required). */
export function apiActor(ctx: Ctx): Actor {
  requireUser(ctx.principal);
  return { principal: ctx.principal, ip: ctx.caller.ip };
}

/**
 * The person managing teams. A team API token is refused even with the `teams` scope (one
 * made before that scope was refused at creation): it acts as its team's service account,
 * which must never read workspaces, create teams or accept invitations.
 */
export function teamActor(ctx: Ctx): Actor {
  requireScope(ctx.principal, 'teams');
  if (ctx.principal.kind === 'token' && ctx.principal.teamId) {
    throw new AppError('auth/forbidden', 'A team API token cannot manage teams: sign in, or use a personal API token with the "teams" scope.');
  }
  return apiActor(ctx);
}
