// The actor of a team route: the signed-in person (a session or a personal API token with
// the `teams` scope) and the client address for the audit log.
import 'server-only';
import type { ApiContext } from './with-api';
import { requireScope, requireUser } from './principal';
import { userPrincipal } from '../authz';
import type { Actor } from '../teams';

/** The actor of any authenticated action, for a team's audit log (no scope required). */
export function apiActor(ctx: Pick<ApiContext<unknown, unknown>, 'principal' | 'caller'>): Actor {
  const userId = requireUser(ctx.principal);
  const tokenId = ctx.principal.kind === 'token' ? ctx.principal.tokenId : undefined;
  return { principal: { ...userPrincipal(userId), ...(tokenId ? { tokenId } : {}) } as Actor['principal'], ip: ctx.caller.ip };
}

export function teamActor(ctx: Pick<ApiContext<unknown, unknown>, 'principal' | 'caller'>): Actor {
  requireScope(ctx.principal, 'teams');
  const userId = requireUser(ctx.principal);
  const tokenId = ctx.principal.kind === 'token' ? ctx.principal.tokenId : undefined;
  return { principal: { ...userPrincipal(userId), ...(tokenId ? { tokenId } : {}) } as Actor['principal'], ip: ctx.caller.ip };
}
