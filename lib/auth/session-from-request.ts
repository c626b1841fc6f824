// The signed-in user of an API request, from the next-auth database session cookie. Used
// by the route wrapper (lib/api) so the browser's own fetches act as the user; no
// next/headers, so it works in any handler and in tests.
import 'server-only';
import crypto from 'node:crypto';
import type { Db } from '../db';

const COOKIES = ['__Secure-authjs.session-token', 'authjs.session-token'];

export function sessionTokenFrom(cookieHeader: string | null): string | null {
  if (!cookieHeader) return null;
  for (const name of COOKIES) {
    for (const part of cookieHeader.split(';')) {
      const eq = part.indexOf('=');
      if (eq > 0 && part.slice(0, eq).trim() === name) {
        const value = decodeURIComponent(part.slice(eq + 1).trim());
        if (/^[A-Za-z0-9_-]{16,200}$/.test(value)) return value;
      }
    }
  }
  return null;
}

export async function sessionUserFromRequest(db: Db, req: Request, now = new Date()): Promise<{ userId: string } | null> {
  const token = sessionTokenFrom(req.headers.get('cookie'));
  if (!token) return null;
  const session = await db.session.findUnique({ where: { sessionToken: token }, select: { userId: true, expires: true } });
  if (!session || session.expires <= now) return null;
  return { userId: session.userId };
}

// Sessions checked before Next.js reads a request (lib/api/page-guard.ts): a cookie that
// only looks like a session must not raise a body limit or pick a rate-limit key, so it
// is looked up, once per token per minute (a missing one once per 10 s), never per request.
// Remembered by a hash of the token, never the token.
type Verified = { userId: string | null; until: number };
const VERIFIED_MS = 60_000;
const MISSING_MS = 10_000;
const MAX_VERIFIED = 20_000;
const shared = globalThis as unknown as { skillyardVerifiedSessions?: Map<string, Verified>; skillyardVerifying?: Map<string, Promise<string | null>> };
const verified = (shared.skillyardVerifiedSessions ??= new Map());
const verifying = (shared.skillyardVerifying ??= new Map());

const tokenKey = (token: string) => crypto.createHash('sha256').update(token).digest('base64url');

/** The user of a session token as last looked up, when that answer is still fresh (undefined: look it up). */
export function cachedSessionUser(token: string, now = Date.now()): string | null | undefined {
  const hit = verified.get(tokenKey(token));
  return hit && hit.until > now ? hit.userId : undefined;
}

/**
 * The user whose unexpired session `token` is (null for none), cached as above. A session
 * deleted at sign-out may still count as signed in here for up to a minute: this decides
 * limits only, never what anybody may see or do.
 */
export async function verifiedSessionUser(db: Db, token: string, now = Date.now()): Promise<string | null> {
  const hit = cachedSessionUser(token, now);
  if (hit !== undefined) return hit;
  const key = tokenKey(token);
  let pending = verifying.get(key);
  if (!pending) {
    pending = (async () => {
      const session = await db.session.findUnique({ where: { sessionToken: token }, select: { userId: true, expires: true } });
      const ok = !!session && session.expires.getTime() > now;
      if (verified.size >= MAX_VERIFIED) verified.clear();
      verified.set(key, { userId: ok ? session!.userId : null, until: ok ? Math.min(now + VERIFIED_MS, session!.expires.getTime()) : now + MISSING_MS });
      return ok ? session!.userId : null;
    })().finally(() => verifying.delete(key));
    verifying.set(key, pending);
  }
  return pending;
}
