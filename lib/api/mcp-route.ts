// The glue between Next.js route handlers and the MCP sessions: who is asking (API token,
// or anonymous), which skills, and errors as JSON-RPC errors with the app's codes.
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { db } from '../db/client';
import { isAppError } from '../errors';
import { authenticateApiToken, requireScope } from '../auth/api-tokens';
import { createMcpSessions, jsonRpcError, type McpSessions } from '../mcp';
import { openRegistryMcpHost, parseMcpSelection } from '../registry/registry-mcp-host';
import { serverContext } from '../server';

const globalMcp = globalThis as unknown as { __skillyardMcpSessions?: McpSessions };
export function mcpSessions(): McpSessions {
  return (globalMcp.__skillyardMcpSessions ??= createMcpSessions());
}

function statusToRpc(status: number): number {
  if (status === 404 || status === 400 || status === 413) return ErrorCode.InvalidParams;
  return ErrorCode.InvalidRequest;
}

export async function handleMcpRoute(req: Request, skills: string[]): Promise<Response> {
  try {
    const principal = await authenticateApiToken(db(), req.headers.get('authorization'));
    requireScope(principal, 'invoke');
    const { refs, key } = parseMcpSelection(skills);
    const userId = principal?.userId ?? null;
    return await mcpSessions().handle({
      req,
      principal: userId ? `user:${userId}` : 'anonymous',
      selection: key,
      openHost: () => openRegistryMcpHost(serverContext(), refs, userId),
      log: (event, fields) => console.error(JSON.stringify({ level: 'error', event, ...fields })),
    });
  } catch (err) {
    if (isAppError(err)) {
      const headers: Record<string, string> = err.status === 401 ? { 'www-authenticate': 'Bearer' } : {};
      return jsonRpcError(err.status, statusToRpc(err.status), `${err.code}: ${err.message}`, headers);
    }
    console.error('[mcp] unexpected error:', err instanceof Error ? err.stack : err);
    return jsonRpcError(500, ErrorCode.InternalError, 'internal: something went wrong on our side');
  }
}
