// The glue between Next.js route handlers and the MCP sessions: who is asking (withApi:
// API token with the invoke scope, session or anonymous, rate limited), which skills, and
// errors as JSON-RPC errors carrying the app's codes (mapped by lib/errors.ts).
import 'server-only';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { MappedError } from '../errors';
import { createMcpSessions, mcpSessionLimits, jsonRpcError, MCP_RETRY_LATER, type McpSessions } from '../mcp';
import { createPgMcpSessionStore, openRegistryMcpHost, parseMcpSelection, serverContext } from '../server';
import { withApi, type ApiContext, type RouteContext } from './with-api';
import { accountKey, accountOf, principalKey } from '../principal';

const globalMcp = globalThis as unknown as { __skillyardMcpSessions?: McpSessions };
export function mcpSessions(): McpSessions {
  // sessions are recorded in Postgres: any instance serves a session another opened
  return (globalMcp.__skillyardMcpSessions ??= createMcpSessions(mcpSessionLimits(), createPgMcpSessionStore(serverContext().db)));
}

/** JSON-RPC code of a refused request; rate limits and back-pressure are -32000 (server error, retry later). */
function statusToRpc(status: number): number {
  if (status === 429 || status === 503) return MCP_RETRY_LATER;
  if (status >= 500) return ErrorCode.InternalError;
  if (status === 404 || status === 400 || status === 413) return ErrorCode.InvalidParams;
  return ErrorCode.InvalidRequest;
}

function mcpError(mapped: MappedError, requestId: string): Response {
  const suffix = mapped.expected ? '' : ` (request id ${requestId})`;
  return jsonRpcError(mapped.status, statusToRpc(mapped.status), `${mapped.code}: ${mapped.message}${suffix}`);
}

/**
 * A route handler for the MCP endpoint; `skillsOf` names the selected skills. Each request
 * costs one rate-limit point like an invoke (batches are refused, so a tools/call is one
 * request), and a POST (which carries a tools/call) counts against the per-caller
 * concurrency cap until its response has been sent; the GET stream and DELETE do not.
 */
export function mcpRoute<P>(skillsOf: (req: Request, params: P) => string[]): (req: Request, route: RouteContext<P>) => Promise<Response> {
  const serve = async ({ req, params, userId, requestId, caller, principal }: ApiContext<P, undefined>): Promise<Response> => {
    const { refs, key } = parseMcpSelection(skillsOf(req, params));
    return mcpSessions().handle({
      req,
      // anonymous sessions are the client address's (the key the sandbox queue and rate limit
      // use), so one address's 20-session cap evicts only its own sessions, never another's
      principal: principalKey(principal, caller.ip),
      // a team token's sessions count against the person who made it (issue 23 item 5)
      account: accountKey(principal, caller.ip),
      selection: key,
      openHost: () => openRegistryMcpHost(serverContext(), refs, userId, caller.ip, accountOf(principal)),
      log: (event, fields) => console.error(JSON.stringify({ level: 'error', event, requestId, ...fields })),
    });
  };
  const post = withApi<P>({ scope: 'invoke', formatError: mcpError, concurrency: 'response' }, serve);
  const stream = withApi<P>({ scope: 'invoke', formatError: mcpError, concurrency: 'stream' }, serve);
  const other = withApi<P>({ scope: 'invoke', formatError: mcpError, concurrency: false }, serve);
  return (req, route) => (req.method === 'POST' ? post : req.method === 'GET' ? stream : other)(req, route);
}

/** The same handler for a fixed selection (tests, other transports). */
export function handleMcpRoute(req: Request, skills: string[]): Promise<Response> {
  return mcpRoute(() => skills)(req, { params: Promise.resolve({}) });
}
