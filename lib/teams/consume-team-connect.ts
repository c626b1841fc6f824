// At the OAuth callback: when the signed-in admin started a team connect (the intent
// cookie of team-connect-intent.ts), the provider's tokens become the team's connection
// and not the admin's own. Returns whether it took the tokens (then the caller stores
// nothing for the user). The cookie is spent either way.
import 'server-only';
import { cookies, headers } from 'next/headers';
import type { Db } from '../db';
import type { ProviderTokens } from '../auth';
import { log } from '../log';
import { storeTeamConnection } from './store-team-connection';
import { TEAM_CONNECT_COOKIE, parseTeamConnectIntent } from './team-connect-intent';
import { clientAddressOf } from '../principal';

export async function consumeTeamConnectIntent(db: Db, userId: string, tokens: ProviderTokens): Promise<boolean> {
  const jar = await cookies();
  const raw = jar.get(TEAM_CONNECT_COOKIE)?.value;
  if (!raw) return false;
  jar.delete(TEAM_CONNECT_COOKIE);
  const slug = parseTeamConnectIntent(raw, userId);
  if (!slug) return false;
  const h = await headers();
  const ip = clientAddressOf(h);
  try {
    await storeTeamConnection(db, userId, slug, tokens, ip);
  } catch (err) {
    // no longer an admin (or the team is gone): the connection is nobody's
    log.warn('team connection refused at the callback', { team: slug, code: (err as { code?: string }).code });
  }
  return true;
}
