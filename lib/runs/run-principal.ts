// Who a run counts against for the queue's caps and fairness. A signed-in user is
// `user:<id>`. An anonymous client is `anon:<hash of its address>`, taken from the last
// `X-Forwarded-For` entry (the one the nearest proxy, or Next.js itself, wrote). A client
// that reaches the server directly can forge that header and so look like many clients:
// the cap on all anonymous runs together (SKILLYARD_RUN_MAX_ACTIVE_ANONYMOUS) bounds that.
import 'server-only';
import crypto from 'node:crypto';
import { clientAddressOf } from '../api/principal';

export const ANONYMOUS_PREFIX = 'anon:';

export function userPrincipal(userId: string): string {
  return `user:${userId}`;
}

export function anonymousPrincipal(clientAddress: string | null): string {
  const key = crypto.createHash('sha256').update(clientAddress || 'unknown').digest('hex').slice(0, 16);
  return `${ANONYMOUS_PREFIX}${key}`;
}

/** `headers`: the request's (a route's `req.headers`, a server action's `await headers()`). */
export function runPrincipalFor(headers: Pick<Headers, 'get'>, userId: string | null): string {
  if (userId) return userPrincipal(userId);
  return anonymousPrincipal(clientAddressOf(headers));
}
