// The glue between Next.js route handlers and the MCP sessions: who is asking (withApi:
// API token with the invoke scope, session or anonymous, rate limited), which skills, and
// errors as JSON-RPC errors carrying the app's codes (mapped by lib/errors.ts).
import 'server-only';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { MappedError } from '../errors';
import { createMcpSessions, jsonRpcError, type McpSessions } from '../mcp';
import { openRegistryMcpHost, parseMcpSelection } from '../registry/registry-mcp-host';
import { serverContext } from '../server';
import { withApi, type RouteContext } from './with-api';

const globalMcp = globalThis as unknown as { __skillyardMcpSessions?: McpSessions };
export function mcpSessions(): McpSessions {
  return (globalMcp.__skillyardMcpSessions ??= createMcpSessions());
}

function statusToRpc(status: number): number {
  if (status >= 500) return ErrorCode.InternalError;
  if (status === 404 || status === 400 || status === 413) return ErrorCode.InvalidParams;
  return ErrorCode.InvalidRequest;
}

function mcpError(mapped: MappedError, requestId: string): Response {
  const suffix = mapped.expected ? '' : ` (request id ${requestId})`;
  return jsonRpcError(mapped.status, statusToRpc(mapped.status), `${mapped.code}: ${mapped.message}${suffix}`);
}

/** A route handler for the MCP endpoint; `skillsOf` names the selected skills. */
export function mcpRoute<P>(skillsOf: (req: Request, params: P) => string[]): (req: Request, route: RouteContext<P>) => Promise<Response> {
  return withApi<P>({ scope: 'invoke', formatError: mcpError, concurrency: false }, async ({ req, params, userId, requestId, caller }) => {
    const { refs, key } = parseMcpSelection(skillsOf(req, params));
    return mcpSessions().handle({
      req,
      principal: userId ? `user:${userId}` : 'anonymous',
      selection: key,
      openHost: () => openRegistryMcpHost(serverContext(), refs, userId, caller.ip),
      log: (event, fields) => console.error(JSON.stringify({ level: 'error', event, requestId, ...fields })),
    });
  });
}

/** The same handler for a fixed selection (tests, other transports). */
export function handleMcpRoute(req: Request, skills: string[]): Promise<Response> {
  return mcpRoute(() => skills)(req, { params: Promise.resolve({}) });
}
