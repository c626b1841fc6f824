// Streamable HTTP sessions of the MCP endpoint. A session belongs to the principal that
// opened it and to the skill selection it was opened for: a request with another
// principal or selection is answered as if the session did not exist (404, which tells
// a client to start over). Sessions live in this process, expire when idle and are
// capped per principal and in all, so a flood of initializations cannot exhaust memory.
// A session whose principal may no longer see any of its skills (removed from the team
// of its private skills) is closed at its next request, answered as a missing session.
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

export type McpSessionLimits = { maxSessions: number; maxPerPrincipal: number; idleMs: number };

export const DEFAULT_MCP_SESSION_LIMITS: McpSessionLimits = {
  maxSessions: Number(process.env.SKILLYARD_MCP_MAX_SESSIONS ?? 1000),
  maxPerPrincipal: Number(process.env.SKILLYARD_MCP_MAX_SESSIONS_PER_PRINCIPAL ?? 20),
  idleMs: Number(process.env.SKILLYARD_MCP_SESSION_IDLE_MS ?? 30 * 60_000),
};

type Session = {
  id: string;
  principal: string;
  selection: string;
  transport: WebStandardStreamableHTTPServerTransport;
  server: Server;
  host: McpToolHost;
  lastSeen: number;
  toolsKey: string | null;
  /** the comparison in progress: comparisons of one session run one after another */
  announcing: Promise<void>;
};

export type McpHttpRequest = {
  req: Request;
  /** who asks: `user:<id>`, or `anonymous:ip:<address>` (capped and bound per address) */
  principal: string;
  /** which skills: the endpoint's stable description of the selection */
  selection: string;
  /** builds the tool host of a new session (loads the skills once) */
  openHost: () => Promise<McpToolHost>;
  log?: (event: string, fields: Record<string, unknown>) => void;
};

export function createMcpSessions(limits: McpSessionLimits = DEFAULT_MCP_SESSION_LIMITS) {
  const sessions = new Map<string, Session>();

  function close(s: Session) {
    sessions.delete(s.id);
    void s.transport.close().catch(() => {});
  }

  function sweep(now = Date.now()) {
    for (const s of sessions.values()) if (now - s.lastSeen > limits.idleMs) close(s);
  }
  const sweeper = setInterval(sweep, Math.min(limits.idleMs, 60_000));
  sweeper.unref?.();

  async function toolsKeyOf(s: Session): Promise<string> {
    return (await s.host.listVisibleTools()).map((t) => t.ref).sort().join('\n');
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

  async function open(input: McpHttpRequest, body: unknown): Promise<Response> {
    sweep();
    const mine = [...sessions.values()].filter((s) => s.principal === input.principal);
    if (mine.length >= limits.maxPerPrincipal) close(mine.sort((a, b) => a.lastSeen - b.lastSeen)[0]);
    if (sessions.size >= limits.maxSessions) {
      return jsonRpcError(503, MCP_RETRY_LATER, 'mcp/too-many-sessions: the server has too many open MCP sessions; try again later', { 'retry-after': '30' });
    }
    const host = await input.openHost();
    let session: Session | null = null;
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      eventStore: createMemoryEventStore(),
      onsessioninitialized: (id) => {
        const s: Session = { id, principal: input.principal, selection: input.selection, transport, server, host, lastSeen: Date.now(), toolsKey: null, announcing: Promise.resolve() };
        session = s;
        sessions.set(id, s);
        s.announcing = toolsKeyOf(s).then((k) => void (s.toolsKey ??= k), () => {});
      },
      onsessionclosed: (id) => void sessions.delete(id),
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
    const s = sessions.get(id);
    if (!s || s.principal !== input.principal || s.selection !== input.selection) {
      return jsonRpcError(404, -32001, 'Session not found');
    }
    if (s.host.visibleSkills && (await s.host.visibleSkills()).length === 0) {
      close(s);
      return jsonRpcError(404, -32001, 'Session not found');
    }
    s.lastSeen = Date.now();
    return s.transport.handleRequest(req, req.method === 'POST' ? { parsedBody: body } : undefined);
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
      for (const s of [...sessions.values()]) close(s);
    },
  };
}

export type McpSessions = ReturnType<typeof createMcpSessions>;
