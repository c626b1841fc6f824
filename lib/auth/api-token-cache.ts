// Valid API tokens kept in memory, so an API call costs no database round trip for its
// credential (bench/http: the round trip was most of what a token caller paid over an
// anonymous one). Revocation still takes effect at once: a trigger on "ApiToken"
// announces every change that can make a token invalid (revoked, new expiry, scopes or
// owner, deleted, also by cascade; a TRUNCATE as '*') on channel skillyard_api_tokens,
// and each instance forgets that token when it hears it. The cache serves only while its
// process hears those notices (`hearApiTokenChanges`, wired at server start): while the
// LISTEN connection is down, or has not heard its own probe (run-event-bus.ts: every 5 s,
// so a connection that died silently is noticed within 10 s), it is emptied and
// bypassed, and every entry lives at most ENTRY_TTL_MS in any case. Unknown tokens are never cached (guesses cost a query each,
// under the rate limit). A notice that arrives while a request is reading its row from
// the database stops that request from caching what it read (the epoch).
import 'server-only';

export type CachedApiToken = {
  id: string;
  userId: string;
  teamId: string | null;
  /** who the token's requests are charged to (api-tokens.ts ApiPrincipal) */
  chargeUserId: string;
  scopes: string[];
  expiresAt: Date | null;
  /** ms since the epoch; null before its first use */
  lastUsedAt: number | null;
};

export const API_TOKEN_CHANNEL = 'skillyard_api_tokens';
const ENTRY_TTL_MS = 30_000;
const MAX_ENTRIES = 10_000;

type Entry = { token: CachedApiToken; until: number };

// on globalThis: Next.js may load this module once for instrumentation.ts (which wires it)
// and again for the route handlers (which read it)
const globalForCache = globalThis as unknown as { skillyardApiTokenCache?: { live: boolean; epoch: number; entries: Map<string, Entry> } };
const state = (globalForCache.skillyardApiTokenCache ??= { live: false, epoch: 0, entries: new Map<string, Entry>() });

/** The token with this hash, when cached and fresh. */
export function cachedApiToken(hash: string): CachedApiToken | null {
  if (!state.live) return null;
  const entry = state.entries.get(hash);
  if (!entry) return null;
  if (entry.until <= Date.now()) {
    state.entries.delete(hash);
    return null;
  }
  return entry.token;
}

/** The epoch to pass to `rememberApiToken` after reading a token's row. */
export function apiTokenEpoch(): number {
  return state.epoch;
}

/** Keeps a valid token read at `epoch`, unless a notice arrived since (it may be about this token). */
export function rememberApiToken(hash: string, token: CachedApiToken, epoch: number): void {
  if (!state.live || epoch !== state.epoch) return;
  if (state.entries.size >= MAX_ENTRIES) state.entries.delete(state.entries.keys().next().value as string);
  state.entries.set(hash, { token, until: Date.now() + ENTRY_TTL_MS });
}

/** A notice: the token with this hash changed or is gone ('*': every token, the table was truncated). */
export function forgetApiToken(hash: string): void {
  state.epoch++;
  if (hash === '*') state.entries.clear();
  else state.entries.delete(hash);
}

/** This instance revoked the token with this id: forgotten here at once, before its notice arrives. */
export function forgetApiTokenId(id: string): void {
  state.epoch++;
  for (const [hash, entry] of state.entries) if (entry.token.id === id) state.entries.delete(hash);
}

/** Whether notices are heard; when they stop, everything cached is forgotten. */
export function setApiTokenCacheLive(live: boolean): void {
  state.epoch++;
  state.live = live;
  if (!live) state.entries.clear();
}

/** What carries the notices (the run event bus's LISTEN connection). */
export type NoticeSource = {
  listenTo(channel: string, handler: (payload: string) => void): Promise<void>;
  onLive(handler: (live: boolean) => void): () => void;
};

/** Wires the cache to the database's notices: call once per process, before or after connecting. */
export async function hearApiTokenChanges(source: NoticeSource): Promise<void> {
  await source.listenTo(API_TOKEN_CHANNEL, forgetApiToken);
  source.onLive(setApiTokenCacheLive);
}
