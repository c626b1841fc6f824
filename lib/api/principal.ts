// Who is asking: an API token (`Authorization: Bearer sy_…`), a signed-in user (session),
// or an anonymous visitor (signed cookie), plus the client address for per-IP limits.
import 'server-only';
import type { Db } from '../db/client';
import { addressBucket } from './address-bucket';
import { httpLimits } from './limits';
import { authenticateApiToken, type ApiTokenScope } from '../auth/api-tokens';
import { AppError } from '../errors';
import { ANONYMOUS_COOKIE, mintAnonymousId, readCookie, verifyAnonymousCookie } from './anonymous-id';
import { sessionUser } from './session-principal';

export type Principal =
  // teamId: a team's token, acting as the team's service account (userId)
  | { kind: 'token'; userId: string; tokenId: string; scopes: string[]; teamId?: string | null; /** ApiPrincipal.chargeUserId */ chargeUserId?: string }
  | { kind: 'user'; userId: string }
  | { kind: 'anonymous'; anonymousId: string; /** minted for this request: not yet a visitor we could recognise again */ fresh?: true };

export type Caller = {
  principal: Principal;
  ip: string;
  /** a cookie value to set when the anonymous id was minted for this request */
  newAnonymousCookie: string | null;
};

/** The client address: X-Forwarded-For as written by the last trusted proxy (or by Next from the socket). */
export function clientIp(req: Request, trustedProxies: number): string {
  const parts = (req.headers.get('x-forwarded-for') ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  const ip = parts[parts.length - Math.max(1, trustedProxies)] ?? parts[0] ?? 'unknown';
  return addressBucket(ip.slice(0, 64));
}

/** The client address of a request known only by its headers (a server action's `headers()`), as withApi sees it. */
export function clientAddressOf(headers: Pick<Headers, 'get'>): string | null {
  const ip = clientIp({ headers } as Request, httpLimits().trustedProxies);
  return ip === 'unknown' ? null : ip;
}

export async function identifyCaller(db: Db, req: Request, trustedProxies: number): Promise<Caller> {
  const ip = clientIp(req, trustedProxies);
  const token = await authenticateApiToken(db, req.headers.get('authorization'));
  if (token) return { principal: { kind: 'token', ...token }, ip, newAnonymousCookie: null };
  const user = await sessionUser(req);
  if (user) return { principal: { kind: 'user', userId: user.userId }, ip, newAnonymousCookie: null };
  const existing = verifyAnonymousCookie(readCookie(req, ANONYMOUS_COOKIE));
  if (existing) return { principal: { kind: 'anonymous', anonymousId: existing }, ip, newAnonymousCookie: null };
  const minted = mintAnonymousId();
  return { principal: { kind: 'anonymous', anonymousId: minted.id, fresh: true }, ip, newAnonymousCookie: minted.cookieValue };
}

/** The user behind a principal (null for anonymous visitors). */
export function userIdOf(p: Principal): string | null {
  return p.kind === 'anonymous' ? null : p.userId;
}

/** The signed-in user (API token or session); anonymous visitors get 401. */
export function requireUser(p: Principal): string {
  if (p.kind === 'anonymous') {
    throw new AppError('auth/unauthenticated', 'Sign in: send "Authorization: Bearer <API token>" (skillyard login), or sign in on the web.');
  }
  return p.userId;
}

/**
 * An anonymous visitor's stable id (a signed cookie they sent back), for storage quotas and
 * warm isolates; null otherwise. An id minted for this very request is not one: a caller
 * that never keeps its cookie would get a fresh storage quota with every request.
 */
export function visitorIdOf(p: Principal): string | null {
  return p.kind === 'anonymous' && !p.fresh ? p.anonymousId : null;
}

/** API tokens carry scopes; a session or an anonymous visitor is limited by what it owns. */
export function requireScope(p: Principal, scope: ApiTokenScope): void {
  if (p.kind === 'token' && !p.scopes.includes(scope)) {
    throw new AppError('auth/forbidden', `This API token lacks the "${scope}" scope.`);
  }
}

/**
 * The rate-limit key: the user behind a session or an API token, the address for anonymous
 * visitors. An API token is charged to its user, not to itself: keyed per token, minting
 * ten tokens gave a person ten budgets (and ten concurrency caps). A team's token is
 * charged to the person who made it: keyed by the team, one account with many teams had as
 * many budgets (and filled the instance's MCP sessions in 3 s).
 */
export function rateKeyOf(p: Principal, ip: string): { key: string; authenticated: boolean } {
  const account = accountOf(p);
  if (account) return { key: `user:${account}`, authenticated: true };
  return { key: `ip:${ip}`, authenticated: false };
}

/** The person a request is charged to (caps, rate limits, runs, MCP sessions); null for anonymous visitors. */
export function accountOf(p: Principal): string | null {
  if (p.kind === 'token') return p.chargeUserId ?? p.userId;
  if (p.kind === 'user') return p.userId;
  return null;
}
