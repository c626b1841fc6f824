// Connections are the unlock (SPEC 3, issue 10): an OAuth login or connect seals the
// provider's access and refresh tokens in the token vault as the held token
// `@oauth/<provider>` whose claims are `account` plus the granted scopes. An expired
// token is refreshed before use; disconnect deletes it and the gated tools lock again.
import 'server-only';
import type { Db } from '../db';
import { userKey } from '../principal';
import { heldTokensChanged } from '../runtime';
import { openSecret, sealSecret } from './secret-box';
import { providersFromEnv, type ProviderSpec } from './provider-config';

export const oauthIssuer = (provider: string) => `@oauth/${provider}`;

export type ProviderTokens = {
  provider: string;
  access_token?: string | null;
  refresh_token?: string | null;
  /** seconds since the epoch */
  expires_at?: number | null;
  expires_in?: number | null;
  scope?: string | null;
};

/** Granted scopes as the provider wrote them (space- or comma-separated), `account` first. */
export function claimsFromScope(scope: string | null | undefined, requested: string[] = []): string[] {
  const granted = scope ? scope.split(/[\s,]+/).filter(Boolean) : requested;
  return ['account', ...new Set(granted.filter((s) => s !== 'account'))];
}

function expiryOf(tokens: ProviderTokens, now = Date.now()): Date | null {
  if (typeof tokens.expires_at === 'number' && Number.isFinite(tokens.expires_at)) return new Date(tokens.expires_at * 1000);
  if (typeof tokens.expires_in === 'number' && Number.isFinite(tokens.expires_in)) return new Date(now + tokens.expires_in * 1000);
  return null;
}

/** Seals a login's or connect's tokens as the user's one `@oauth/<provider>` held token. */
export async function storeConnectionTokens(db: Db, userId: string, tokens: ProviderTokens, requested: string[] = []): Promise<void> {
  if (!tokens.access_token) return;
  const issuer = oauthIssuer(tokens.provider);
  const previous = await db.heldToken.findFirst({ where: { userId, issuer, mintedByTool: null }, orderBy: { createdAt: 'desc' } });
  // a re-consent may come without a new refresh token: keep the one we have
  const refreshSecret = tokens.refresh_token ? sealSecret(tokens.refresh_token) : (previous?.refreshSecret ?? null);
  await db.$transaction([
    db.heldToken.deleteMany({ where: { userId, issuer, mintedByTool: null } }),
    db.heldToken.create({
      data: {
        userId,
        issuer,
        claims: claimsFromScope(tokens.scope, requested),
        secret: sealSecret(tokens.access_token),
        refreshSecret,
        expiresAt: expiryOf(tokens),
      },
    }),
  ]);
  // open MCP sessions of this user list the tools the connection unlocked
  heldTokensChanged(userKey(userId));
}

export type Connection = { provider: string; claims: string[]; expiresAt: Date | null; refreshable: boolean; connectedAt: Date };

export async function listConnections(db: Db, userId: string): Promise<Connection[]> {
  const rows = await db.heldToken.findMany({
    where: { userId, issuer: { startsWith: '@oauth/' }, mintedByTool: null },
    orderBy: { createdAt: 'asc' },
    select: { issuer: true, claims: true, expiresAt: true, refreshSecret: true, createdAt: true },
  });
  return rows.map((r) => ({
    provider: r.issuer.slice('@oauth/'.length),
    claims: r.claims,
    expiresAt: r.expiresAt,
    refreshable: r.refreshSecret !== null,
    connectedAt: r.createdAt,
  }));
}

/** Deletes the user's `@oauth/<provider>` token; their gated tools lock again. */
export async function disconnect(db: Db, userId: string, provider: string): Promise<number> {
  const { count } = await db.heldToken.deleteMany({ where: { userId, issuer: oauthIssuer(provider), mintedByTool: null } });
  if (count > 0) heldTokensChanged(userKey(userId));
  return count;
}

const discovered = new Map<string, Promise<string>>();

async function tokenEndpoint(spec: ProviderSpec, fetchImpl: typeof fetch): Promise<string> {
  if (spec.tokenUrl) return spec.tokenUrl;
  if (!spec.issuer) throw new Error(`provider ${spec.id} has no token endpoint`);
  const key = spec.issuer;
  let found = discovered.get(key);
  if (!found) {
    found = fetchImpl(`${spec.issuer}/.well-known/openid-configuration`)
      .then(async (res) => {
        if (!res.ok) throw new Error(`discovery answered ${res.status}`);
        const doc = (await res.json()) as { token_endpoint?: string };
        if (!doc.token_endpoint) throw new Error('discovery has no token_endpoint');
        return doc.token_endpoint;
      })
      .catch((err) => {
        discovered.delete(key);
        throw err;
      });
    discovered.set(key, found);
  }
  return found;
}

/** One refresh_token grant at the provider's token endpoint (RFC 6749 section 6). */
export async function refreshAtProvider(spec: ProviderSpec, refreshToken: string, fetchImpl: typeof fetch = fetch): Promise<ProviderTokens> {
  const body = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken });
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
  if (spec.tokenAuth === 'client_secret_post') {
    body.set('client_id', spec.clientId);
    body.set('client_secret', spec.clientSecret);
  } else {
    const enc = (s: string) => encodeURIComponent(s);
    headers.authorization = `Basic ${Buffer.from(`${enc(spec.clientId)}:${enc(spec.clientSecret)}`).toString('base64')}`;
  }
  const res = await fetchImpl(await tokenEndpoint(spec, fetchImpl), { method: 'POST', headers, body, signal: AbortSignal.timeout(10_000) });
  const json = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (!res.ok || typeof json.access_token !== 'string') {
    // the provider's error code only: its description could echo what we sent
    throw new Error(`the ${spec.name} token endpoint refused the refresh (${res.status} ${typeof json.error === 'string' ? json.error : ''})`.trim());
  }
  return {
    provider: spec.id,
    access_token: json.access_token,
    refresh_token: typeof json.refresh_token === 'string' ? json.refresh_token : null,
    expires_in: typeof json.expires_in === 'number' ? json.expires_in : null,
    scope: typeof json.scope === 'string' ? json.scope : null,
  };
}

const REFRESH_MARGIN_MS = 30_000;

/**
 * Refreshes the user's expired (or about to expire) `@oauth/*` tokens that have a refresh
 * token, before the token gate looks at them. A refused refresh leaves the token expired:
 * the gate then says so and the planner offers to connect again.
 */
export async function refreshExpiredConnections(
  db: Db,
  userId: string,
  opts: { now?: Date; providers?: ProviderSpec[]; fetch?: typeof fetch } = {},
): Promise<{ refreshed: string[]; failed: string[] }> {
  const now = opts.now ?? new Date();
  const stale = await db.heldToken.findMany({
    where: {
      userId,
      issuer: { startsWith: '@oauth/' },
      mintedByTool: null,
      refreshSecret: { not: null },
      expiresAt: { lte: new Date(now.getTime() + REFRESH_MARGIN_MS) },
    },
  });
  const out = { refreshed: [] as string[], failed: [] as string[] };
  if (stale.length === 0) return out;
  const specs = opts.providers ?? providersFromEnv();
  for (const row of stale) {
    const provider = row.issuer.slice('@oauth/'.length);
    const spec = specs.find((s) => s.id === provider);
    if (!spec) continue;
    try {
      const tokens = await refreshAtProvider(spec, openSecret(row.refreshSecret!), opts.fetch);
      // the same grant: a refresh never widens the scopes we record
      const claims = tokens.scope ? claimsFromScope(tokens.scope) : row.claims;
      await db.heldToken.updateMany({
        where: { id: row.id, secret: row.secret },
        data: {
          secret: sealSecret(tokens.access_token!),
          refreshSecret: tokens.refresh_token ? sealSecret(tokens.refresh_token) : row.refreshSecret,
          expiresAt: expiryOf(tokens, now.getTime()),
          claims,
        },
      });
      out.refreshed.push(provider);
    } catch (err) {
      console.warn(`[auth] could not refresh the ${provider} connection of user ${userId}: ${(err as Error).message}`);
      out.failed.push(provider);
    }
  }
  return out;
}
