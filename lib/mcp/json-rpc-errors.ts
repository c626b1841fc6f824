// JSON-RPC error responses for what fails before the MCP SDK sees a request
// (body too large, not JSON, too deep, unknown session, rate limited, unauthenticated).
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';

export function jsonRpcError(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

export const parseError = (message: string) => jsonRpcError(400, ErrorCode.ParseError, message);
export const invalidRequest = (message: string, status = 400) => jsonRpcError(status, ErrorCode.InvalidRequest, message);

/** Implementation-defined server error: rate limited or overloaded, retry after Retry-After. */
export const MCP_RETRY_LATER = -32000;
