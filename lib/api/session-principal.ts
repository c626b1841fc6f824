// The hook for browser sessions: the signed-in user of the next-auth database session
// (lib/auth/session-from-request.ts). A state-changing request whose Origin is another
// site never acts as the user (CSRF), on top of the cookie's SameSite=Lax.
import 'server-only';
import { db } from '../db';
import { isSameOrigin, sessionUserFromRequest } from '../auth';

export async function sessionUser(req: Request): Promise<{ userId: string } | null> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    const origin = req.headers.get('origin');
    if (origin && !isSameOrigin(origin, req.headers.get('host'), req.headers.get('x-forwarded-host'))) return null;
  }
  return sessionUserFromRequest(db(), req);
}
