// "The kernel for this caller" on the server: who they are (user, anonymous visitor with
// a stable cookie identity, or anonymous with none), the tokens they hold, and the
// Postgres-backed providers with the quotas that apply to them.
import 'server-only';
import crypto from 'node:crypto';
import type { Db } from '../db';
import { refreshExpiredConnections } from '../auth';
import type { Caller, CapabilityProviders, ToolManagerOptions } from '../runtime';
import { loadHeldTokens } from './capabilities/pg-token-vault';
import { teamHeldTokens } from '../teams';
import { createEphemeralStorage } from './capabilities/ephemeral-storage';
import type { ServerContext } from './server-context';
import { anonymousKey, userKey } from '../principal';

/**
 * Who is calling, as the HTTP layer knows it. `visitorId` is an anonymous visitor's
 * signed-cookie id. `heldTokens: false`: the skills to be run declare no input tokens, so
 * the user's held tokens need not be read (one database round trip less per call). `ip`:
 * the client address; an anonymous caller's sandbox jobs queue under it. `account`: the
 * person charged when it is not `userId` (a team token's maker): the caller's sandbox jobs
 * take that person's share of the fair queue, so teams buy no more shares (issue 23).
 */
export type CallerIdentity = {
  userId: string | null;
  visitorId?: string | null;
  heldTokens?: boolean;
  ip?: string | null;
  account?: string | null;
  /** the sandbox queue's principal when the caller already has one (a run's stored key) */
  queueKey?: string;
};

/** What createToolManager needs from the server for one caller. */
export type CallerRuntime = Pick<ToolManagerOptions, 'caller' | 'sandbox' | 'providers' | 'allowSubprocess' | 'moduleCache' | 'refreshHeld'>;

const VISITOR_ID = /^[A-Za-z0-9_-]{8,64}$/;

export async function resolveCaller(db: Db, who: CallerIdentity): Promise<Caller> {
  if (who.userId) {
    const id = userKey(who.userId);
    const charged = who.queueKey ? { queueKey: who.queueKey } : who.account && who.account !== who.userId ? { queueKey: userKey(who.account) } : {};
    if (who.heldTokens === false) return { id, kind: 'user', tokens: [], ...charged };
    // the user's own tokens, and their teams' connections (each only for that team's own
    // skills: HeldToken.onlyForScope), read now so that leaving a team ends their use
    const [own, team] = await Promise.all([loadHeldTokens(db, id), teamHeldTokens(db, who.userId)]);
    let tokens = own;
    // an OAuth connection about to expire is refreshed before the token gate looks at it
    // (checked on the tokens just read, so a call without one costs no extra round trip)
    const soon = Date.now() + 60_000;
    if (tokens.some((t) => t.issuer.startsWith('@oauth/') && t.expiresAt && t.expiresAt.getTime() <= soon)) {
      const { refreshed } = await refreshExpiredConnections(db, who.userId);
      if (refreshed.length) tokens = await loadHeldTokens(db, id);
    }
    return { id, kind: 'user', tokens: team.length ? [...tokens, ...team] : tokens, ...charged };
  }
  const queueKey = who.queueKey ? { queueKey: who.queueKey } : who.ip ? { queueKey: anonymousKey(who.ip) } : {};
  if (who.visitorId && VISITOR_ID.test(who.visitorId)) return { id: `visitor:${who.visitorId}`, kind: 'anonymous', tokens: [], ...queueKey };
  // an anonymous caller without a stable identity holds nothing and keeps nothing between calls
  return { id: `anonymous:${crypto.randomUUID()}`, kind: 'anonymous', tokens: [], ...queueKey };
}

/**
 * Storage for this caller: Postgres with the quota of its kind, or, for a caller nobody
 * could recognise again, memory that lives as long as this call (or run) does.
 */
function storageFor(server: ServerContext, caller: Caller): CapabilityProviders['storage'] {
  if (caller.kind === 'user' || caller.kind === 'team') return server.providers.storage;
  if (caller.id.startsWith('visitor:')) return server.providers.visitorStorage;
  return createEphemeralStorage(server.config.anonymousStorageQuota);
}

export async function runtimeForCaller(server: ServerContext, who: CallerIdentity, extra: Partial<CapabilityProviders> = {}): Promise<CallerRuntime> {
  const caller = await resolveCaller(server.db, who);
  const { storage: _s, visitorStorage: _v, ...shared } = server.providers;
  return {
    caller,
    sandbox: server.sandbox,
    providers: { ...shared, storage: storageFor(server, caller), ...extra },
    allowSubprocess: server.config.allowSubprocess,
    moduleCache: server.modules,
    // a user's tokens read again (expired connections refreshed first) when the kernel finds one stale mid-run
    ...(caller.kind === 'user' && { refreshHeld: async () => (await resolveCaller(server.db, who)).tokens }),
  };
}
