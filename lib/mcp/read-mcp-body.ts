// Reads a JSON-RPC request body with a byte limit (refused early from Content-Length,
// counted while streaming otherwise) and a nesting limit, before the SDK parses it.
// A JSON-RPC batch (an array) is refused: protocol revision 2025-11-25 has no batching,
// and a batch would run up to 100 tools/call for the price of one request.
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { jsonTextExceedsDepth } from '../skills';
import { jsonRpcError, parseError } from './json-rpc-errors';

export const MCP_MAX_BODY_BYTES = 1024 * 1024;
export const MCP_MAX_DEPTH = 64;

export type BodyResult = { ok: true; body: unknown } | { ok: false; response: Response };

function tooLarge(limit: number) {
  return jsonRpcError(413, ErrorCode.InvalidRequest, `request/too-large: the request body is larger than ${limit} bytes`);
}

export async function readMcpBody(req: Request, limit = MCP_MAX_BODY_BYTES): Promise<BodyResult> {
  const declared = Number(req.headers.get('content-length') ?? 'NaN');
  if (Number.isFinite(declared) && declared > limit) return { ok: false, response: tooLarge(limit) };
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (req.body) {
    const reader = req.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => {});
        return { ok: false, response: tooLarge(limit) };
      }
      chunks.push(value);
    }
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (jsonTextExceedsDepth(text, MCP_MAX_DEPTH)) {
    return { ok: false, response: jsonRpcError(400, ErrorCode.InvalidRequest, `request/too-deep: JSON nested deeper than ${MCP_MAX_DEPTH}`) };
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { ok: false, response: parseError('Parse error: the request body is not valid JSON') };
  }
  if (Array.isArray(body)) {
    return {
      ok: false,
      response: jsonRpcError(400, ErrorCode.InvalidRequest, 'Invalid Request: JSON-RPC batches are not supported (MCP 2025-11-25 has no batching); send one message per request'),
    };
  }
  return { ok: true, body };
}
