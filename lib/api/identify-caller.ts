// Who is asking, derived from a request in this one place (routes through withApi, server
// actions through their chain): an API token (`Authorization: Bearer sy_…`), a signed-in
// user (session), or an anonymous visitor (signed cookie), plus the client address.
import 'server-only';
import type { Db } from '../db';
import { authenticateApiToken } from '../auth';
import { clientIp, type Principal } from '../principal';
import { ANONYMOUS_COOKIE, mintAnonymousId, readCookie, verifyAnonymousCookie } from './anonymous-id';
import { sessionUser } from './session-principal';

export type Caller = {
  principal: Principal;
  ip: string;
  /** a cookie value to set when the anonymous id was minted for this request */
  newAnonymousCookie: string | null;
};

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
