// Streamable HTTP sessions of the MCP endpoint. A session belongs to the principal that
// opened it and to the skill selection it was opened for: a request with another
// principal or selection is answered as if the session did not exist (404, which tells
// a client to start over). Sessions live in this process, expire when idle and are
// capped per account (the person charged: a team token's maker, so that making teams buys
// nobody more sessions), for anonymous callers together, and in all, so a flood of
// initializations cannot exhaust memory and no one account can fill the server's maximum.
// A session whose principal may no longer see any of its skills (removed from the team
// of its private skills) is closed at its next request, answered as a missing session.
// With a store (McpSessionStore; Postgres in the app), a session opened on one instance
// is served by any other: an instance that does not know the id finds it in the store,
// checks principal and selection, and revives it locally (a transport with that id,
// initialized as the client did) before answering. Only what a client sent in
// `initialize` is stored; each instance keeps its own transport, stream and event store.
import crypto from 'node:crypto';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { onHeldTokensChanged } from '../runtime';
import { createMcpServer } from './create-mcp-server';
import { createMemoryEventStore } from './memory-event-store';
import { invalidRequest, jsonRpcError, MCP_RETRY_LATER } from './json-rpc-errors';
import { readMcpBody } from './read-mcp-body';
import type { McpToolHost } from './tool-host';
import { setting } from '../config';
import { isAnonymousKey } from '../principal';

/**
 * `maxPerPrincipal`: sessions of one account (or one anonymous address); `maxAnonymous`:
 * of all anonymous callers together (addresses are cheap to vary), default half of
 * `maxSessions`. Each is held below `maxSessions`, so no one caller ever fills it.
 */
export type McpSessionLimits = { maxSessions: number; maxPerPrincipal: number; maxAnonymous?: number; idleMs: number };

/** The limits the operator set (SKILLYARD_MCP_*), read when the sessions are made. */
export const mcpSessionLimits = (): McpSessionLimits => ({
  maxSessions: setting('SKILLYARD_MCP_MAX_SESSIONS'),
  maxPerPrincipal: setting('SKILLYARD_MCP_MAX_SESSIONS_PER_PRINCIPAL'),
  maxAnonymous: setting('SKILLYARD_MCP_MAX_ANONYMOUS_SESSIONS'),
  idleMs: setting('SKILLYARD_MCP_SESSION_IDLE_MS'),
});

type Session = {
  id: string;
  principal: string;
  account: string;
  selection: string;
  transport: WebStandardStreamableHTTPServerTransport;
  server: Server;
  host: McpToolHost;
  lastSeen: number;
  toolsKey: string | null;
  /** the comparison in progress: comparisons of one session run one after another */
  announcing: Promise<void>;
};

/** Where sessions are recorded so that every instance can serve them. */
export type McpSessionStore = {
  save(s: { id: string; principal: string; selection: string; protocolVersion: string }): Promise<void>;
  /** the session if it was used within `idleMs` */
  find(id: string, idleMs: number): Promise<{ principal: string; selection: string; protocolVersion: string } | null>;
  touch(id: string): Promise<void>;
  remove(id: string): Promise<void>;
};

export type McpHttpRequest = {
  req: Request;
  /** who asks: `user:<id>`, or `anon:<address hash>` (capped and bound per address): lib/principal's key */
  principal: string;
  /** who is charged, for the caps: the principal, or for a team token `user:<its maker>` */
  account?: string;
  /** which skills: the endpoint's stable description of the selection */
  selection: string;
  /** builds the tool host of a new session (loads the skills once) */
  openHost: () => Promise<McpToolHost>;
  log?: (event: string, fields: Record<string, unknown>) => void;
};

export function createMcpSessions(limits: McpSessionLimits = mcpSessionLimits(), store?: McpSessionStore) {
  const sessions = new Map<string, Session>();
  const storeFailed = (what: string) => (err: unknown) =>
    console.warn(JSON.stringify({ level: 'warn', component: 'mcp.sessions', msg: `session store: ${what} failed`, error: err instanceof Error ? err.message : String(err) }));
  /** last time each session's row was touched here (at most once a minute) */
  const touched = new Map<string, number>();
  // a share of the maximum, never all of it: one account (or all anonymous callers) stops
  // short of it, and evicts its own oldest session rather than refuse everybody else
  const perAccount = Math.max(1, Math.min(limits.maxPerPrincipal, Math.floor(limits.maxSessions / 4)));
  const anonymousAll = Math.max(1, Math.min(limits.maxAnonymous ?? Math.floor(limits.maxSessions / 2), limits.maxSessions - 1));
  const isAnonymous = (account: string) => isAnonymousKey(account);

  /** `everywhere`: the session ends for every instance (evicted, or left with no skill), not only here */
  /** resolves once the store forgot it, so no instance revives a session already answered as ended */
  async function close(s: Session, everywhere = false): Promise<void> {
    sessions.delete(s.id);
    touched.delete(s.id);
    void s.transport.close().catch(() => {});
    if (everywhere) await store?.remove(s.id).catch(storeFailed('remove'));
  }

  function sweep(now = Date.now()) {
    for (const s of sessions.values()) if (now - s.lastSeen > limits.idleMs) void close(s);
  }
  const sweeper = setInterval(sweep, Math.min(limits.idleMs, 60_000));
  sweeper.unref?.();

  async function toolsKeyOf(s: Session): Promise<string> {
    return (await s.host.listVisibleTools())
      .map((t) => t.ref)
      .sort()
      .join('\n');
  }

  /**
   * Tells the session's client when the tools it may see changed (a token was minted or
   * connected). Serialised per session, so a call's own check and the principal-wide one
   * that its mint triggers do not both announce the same change.
   */
  function announceToolChanges(s: Session): Promise<void> {
    s.announcing = s.announcing.then(async () => {
      try {
        const key = await toolsKeyOf(s);
        if (s.toolsKey !== null && key !== s.toolsKey) await s.server.sendToolListChanged();
        s.toolsKey = key;
      } catch {
        // the client may have gone away; the next request re-reads the list anyway
      }
    });
    return s.announcing;
  }

  /** `reviveId`: a session another instance opened, initialized here under its own id */
  async function open(input: McpHttpRequest, body: unknown, reviveId?: string): Promise<Response> {
    sweep();
    const account = input.account ?? input.principal;
    const oldest = (list: Session[]) => list.sort((a, b) => a.lastSeen - b.lastSeen)[0];
    const mine = [...sessions.values()].filter((s) => s.account === account);
    if (mine.length >= perAccount) await close(oldest(mine), true);
    if (isAnonymous(account)) {
      const anonymous = [...sessions.values()].filter((s) => isAnonymous(s.account));
      if (anonymous.length >= anonymousAll) await close(oldest(anonymous), true);
    }
    if (sessions.size >= limits.maxSessions) {
      return jsonRpcError(503, MCP_RETRY_LATER, 'mcp/too-many-sessions: the server has too many open MCP sessions; try again later', { 'retry-after': '30' });
    }
    const host = await input.openHost();
    let session: Session | null = null;
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => reviveId ?? crypto.randomUUID(),
      eventStore: createMemoryEventStore(),
      onsessioninitialized: async (id) => {
        const s: Session = {
          id,
          principal: input.principal,
          account,
          selection: input.selection,
          transport,
          server,
          host,
          lastSeen: Date.now(),
          toolsKey: null,
          announcing: Promise.resolve(),
        };
        session = s;
        sessions.set(id, s);
        s.announcing = toolsKeyOf(s).then(
          (k) => void (s.toolsKey ??= k),
          () => {},
        );
        if (store && !reviveId) {
          const protocolVersion = String((body as { params?: { protocolVersion?: unknown } }).params?.protocolVersion ?? '');
          touched.set(id, Date.now());
          // stored before the client hears the id, so its next request may go to any instance
          await store.save({ id, principal: input.principal, selection: input.selection, protocolVersion }).catch(storeFailed('save'));
        }
      },
      // the transport awaits this before it answers the DELETE: the session is gone everywhere by then
      onsessionclosed: async (id) => {
        sessions.delete(id);
        touched.delete(id);
        await store?.remove(id).catch(storeFailed('remove'));
      },
    });
    const server = createMcpServer(host, {
      log: input.log,
      onToolCalled: () => session && void announceToolChanges(session),
    });
    await server.connect(transport);
    return transport.handleRequest(input.req, { parsedBody: body });
  }

  async function handle(input: McpHttpRequest): Promise<Response> {
    const { req } = input;
    let body: unknown;
    if (req.method === 'POST') {
      const read = await readMcpBody(req);
      if (!read.ok) return read.response;
      body = read.body;
    }
    const id = req.headers.get('mcp-session-id');
    if (!id) {
      if (req.method === 'POST' && isInitializeRequest(body)) return open(input, body);
      return invalidRequest('Bad Request: no valid Mcp-Session-Id header; start with an initialize request');
    }
    let s = sessions.get(id);
    if (!s && store) s = await revive(input, id);
    if (!s || s.principal !== input.principal || s.selection !== input.selection) {
      return jsonRpcError(404, -32001, 'Session not found');
    }
    if (s.host.visibleSkills && (await s.host.visibleSkills()).length === 0) {
      await close(s, true);
      return jsonRpcError(404, -32001, 'Session not found');
    }
    s.lastSeen = Date.now();
    if (store && s.lastSeen - (touched.get(id) ?? 0) > 60_000) {
      touched.set(id, s.lastSeen);
      void store.touch(id).catch(storeFailed('touch'));
    }
    return s.transport.handleRequest(req, req.method === 'POST' ? { parsedBody: body } : undefined);
  }

  /**
   * A session this instance does not hold: found in the store for the same principal and
   * selection, it is opened here under its id and initialized as its client did (the
   * answer to that replayed initialize goes nowhere). Null when there is no such session.
   */
  async function revive(input: McpHttpRequest, id: string): Promise<Session | undefined> {
    const known = await store!.find(id, limits.idleMs).catch((err) => {
      storeFailed('find')(err);
      return null;
    });
    if (!known || known.principal !== input.principal || known.selection !== input.selection) return undefined;
    const init = {
      jsonrpc: '2.0' as const,
      id: `revive-${id}`,
      method: 'initialize',
      params: { protocolVersion: known.protocolVersion, capabilities: {}, clientInfo: { name: 'revived-session', version: '0' } },
    };
    const replay = new Request(input.req.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(init),
    });
    const res = await open({ ...input, req: replay }, init, id);
    await res.text().catch(() => '');
    const s = sessions.get(id);
    if (s) touched.set(id, Date.now());
    return s;
  }

  /** After a connection or mint outside MCP: re-check every session of this principal. */
  async function principalTokensChanged(principal: string) {
    await Promise.all([...sessions.values()].filter((s) => s.principal === principal).map(announceToolChanges));
  }
  // the places that write held tokens announce it (lib/runtime's held-tokens signal);
  // anonymous sessions hold only what they minted themselves (checked after each call)
  const unsubscribe = onHeldTokensChanged((holderId) => (holderId.startsWith('user:') ? principalTokensChanged(holderId) : undefined));

  return {
    handle,
    principalTokensChanged,
    size: () => sessions.size,
    closeAll() {
      clearInterval(sweeper);
      unsubscribe();
      for (const s of [...sessions.values()]) void close(s);
    },
  };
}

export type McpSessions = ReturnType<typeof createMcpSessions>;
