// "This OAuth connect is for a team": an admin's connect button sets a short-lived,
// httpOnly cookie naming the team before the provider round trip; the callback reads it
// (consumeTeamConnectIntent) and stores the tokens as the team's instead of the admin's.
// The cookie grants nothing by itself: the callback checks the admin role again.
import 'server-only';
export const TEAM_CONNECT_COOKIE = 'skillyard-team-connect';
export const TEAM_CONNECT_TTL_S = 600;

export function encodeTeamConnectIntent(slug: string, userId: string, now = Date.now()): string {
  return `${slug}.${userId}.${now + TEAM_CONNECT_TTL_S * 1000}`;
}

/** The team slug of a live intent made by `userId`, else null. */
export function parseTeamConnectIntent(value: string | undefined | null, userId: string, now = Date.now()): string | null {
  const m = /^([a-z0-9-]{2,39})\.([A-Za-z0-9_-]{1,64})\.(\d{10,16})$/.exec(value ?? '');
  if (!m || m[2] !== userId || Number(m[3]) < now) return null;
  return m[1];
}
