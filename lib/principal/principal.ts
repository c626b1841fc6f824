// Who is asking: the one answer every floor uses (routes, server actions, authorization,
// runs, MCP sessions, the audit log). A signed-in person (session), an API token (a
// personal one acts as its user; a team's acts as the team's service account, `userId`,
// and is charged to the person who made it), or an anonymous visitor.
import { AppError } from '../errors';

export type Principal =
  | { kind: 'user'; userId: string }
  | {
      kind: 'token';
      userId: string;
      tokenId: string;
      scopes: string[];
      /** set for a team's token: it acts as that team's service account (`userId`) */
      teamId?: string | null;
      /** who the token's use is charged to (a team token's maker); else `userId` */
      chargeUserId?: string;
    }
  | {
      kind: 'anonymous';
      /** a visitor's signed-cookie id, when the request carried (or was given) one */
      anonymousId?: string;
      /** minted for this request: not yet a visitor we could recognise again */
      fresh?: true;
    };

export const ANONYMOUS: Principal = { kind: 'anonymous' };

/** A signed-in user by id (a session); nobody when there is no id. */
export function userPrincipal(userId: string | null | undefined): Principal {
  return userId ? { kind: 'user', userId } : ANONYMOUS;
}

/** The user behind a principal (a team token's service account), null for anonymous visitors. */
export function userIdOf(p: Principal): string | null {
  return p.kind === 'anonymous' ? null : p.userId;
}

/** The person a request is charged to (caps, rate limits, runs, MCP sessions); null for anonymous visitors. */
export function accountOf(p: Principal): string | null {
  if (p.kind === 'token') return p.chargeUserId ?? p.userId;
  if (p.kind === 'user') return p.userId;
  return null;
}

/**
 * An anonymous visitor's stable id (a signed cookie they sent back), for storage quotas and
 * warm isolates; null otherwise. An id minted for this very request is not one: a caller
 * that never keeps its cookie would get a fresh storage quota with every request.
 */
export function visitorIdOf(p: Principal): string | null {
  return p.kind === 'anonymous' && !p.fresh && p.anonymousId ? p.anonymousId : null;
}

/** The API token a principal is using, for the audit log; null for a session or a visitor. */
export function tokenIdOf(p: Principal): string | null {
  return p.kind === 'token' ? p.tokenId : null;
}

/** The signed-in user (API token or session); anonymous visitors get 401. */
export function requireUser(p: Principal): string {
  if (p.kind === 'anonymous') {
    throw new AppError('auth/unauthenticated', 'Sign in: send "Authorization: Bearer <API token>" (skillyard login), or sign in on the web.');
  }
  return p.userId;
}

/** The one scope of a trusted publisher's short-lived token (lib/trusted-publishing): it publishes its one skill, nothing else. */
export const TRUSTED_PUBLISH_SCOPE = 'trusted-publish';

export function isTrustedPublishToken(p: Principal): p is Extract<Principal, { kind: 'token' }> {
  return p.kind === 'token' && p.scopes.includes(TRUSTED_PUBLISH_SCOPE);
}

/** API tokens carry scopes; a session or an anonymous visitor is limited by what it owns. */
export function requireScope(p: Principal, scope: string): void {
  if (p.kind === 'token' && !p.scopes.includes(scope)) {
    throw new AppError('auth/forbidden', `This API token lacks the "${scope}" scope.`);
  }
}
