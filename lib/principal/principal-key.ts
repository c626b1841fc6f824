// The one string form of "who" in keys: rate-limit buckets, concurrency caps, the run
// queue's caps (stored with each run), MCP session bindings and the sandbox queue. A
// signed-in caller is `user:<id>`; an anonymous one is `anon:<hash of its address>` (an
// address is never stored: runs and limit rows outlive it).
import crypto from 'node:crypto';
import { accountOf, userIdOf, type Principal } from './principal';

export const ANONYMOUS_KEY_PREFIX = 'anon:';

/** `anon:<16 hex digits>` of a client address (the same for every caller behind it). */
export function anonymousKey(address: string | null): string {
  return (
    ANONYMOUS_KEY_PREFIX +
    crypto
      .createHash('sha256')
      .update(address || 'unknown')
      .digest('hex')
      .slice(0, 16)
  );
}

export const userKey = (userId: string) => `user:${userId}`;

export const isAnonymousKey = (key: string) => key.startsWith(ANONYMOUS_KEY_PREFIX);

/** Who acts: the user behind a session or a token (a team token's service account), else the address. */
export function principalKey(p: Principal, address: string | null): string {
  const userId = userIdOf(p);
  return userId ? userKey(userId) : anonymousKey(address);
}

/** Who is charged: the person behind it (a team token's maker), else the address. */
export function accountKey(p: Principal, address: string | null): string {
  const account = accountOf(p);
  return account ? userKey(account) : anonymousKey(address);
}

/**
 * The rate-limit key: the person behind a session or an API token, the address for anonymous
 * visitors. An API token is charged to its user, not to itself: keyed per token, minting
 * ten tokens gave a person ten budgets (and ten concurrency caps). A team's token is
 * charged to the person who made it: keyed by the team, one account with many teams had as
 * many budgets (and filled the instance's MCP sessions in 3 s).
 */
export function rateKeyOf(p: Principal, address: string | null): { key: string; authenticated: boolean } {
  return { key: accountKey(p, address), authenticated: accountOf(p) !== null };
}
