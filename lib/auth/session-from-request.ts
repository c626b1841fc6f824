// The signed-in user of an API request, from the next-auth database session cookie. Used
// by the route wrapper (lib/api) so the browser's own fetches act as the user; no
// next/headers, so it works in any handler and in tests.
import 'server-only';
import type { Db } from '../db/client';

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
