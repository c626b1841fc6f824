// Handler kind `mcp` (Rye MCP tool definitions): calls the tool on the MCP server that
// the package declares (a Rye `mcp_server` component), over Streamable HTTP. The server's
// host is the only one the call may reach, with the net capability's rules: http(s) only,
// no redirects, the operator's network guard (providers.net.fetch), a deadline. Servers
// over stdio are subprocesses: only when the operator allows subprocesses.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { SkillManifest, ToolManifest } from '../skills';
import type { NetOptions } from './capabilities/types';
import { RuntimeError } from './errors';
import { checkedAddress } from './capabilities/net';

export type McpServerConfig = { transport: string; url?: string; timeoutMs: number; command?: string };

const DEFAULT_TIMEOUT_MS = 30_000;

/** The server component a tool's handler ref (`<server-id>#<tool-name>`) points at. */
export function mcpServerFor(manifest: SkillManifest, tool: ToolManifest): { server: McpServerConfig; toolName: string } {
  const ref = tool.handler.ref ?? '';
  const hash = ref.lastIndexOf('#');
  if (hash <= 0) throw new RuntimeError('runtime/unsupported-handler', `tool '${tool.name}' names no MCP server (handler ref '${ref}')`);
  const serverId = ref.slice(0, hash);
  const toolName = ref.slice(hash + 1);
  const rye = (manifest.metadata as { rye?: { components?: Record<string, { config?: Record<string, unknown> }> } }).rye;
  const config = rye?.components?.[serverId]?.config;
  if (!config) throw new RuntimeError('runtime/unsupported-handler', `tool '${tool.name}' uses MCP server ${serverId}, which this package does not define`);
  const timeout = typeof config.timeout === 'number' && config.timeout > 0 ? config.timeout * 1000 : DEFAULT_TIMEOUT_MS;
  return {
    server: {
      transport: String(config.transport ?? (config.url ? 'http' : 'stdio')),
      url: typeof config.url === 'string' ? config.url : undefined,
      command: typeof config.command === 'string' ? config.command : undefined,
      timeoutMs: Math.min(tool.timeoutMs ?? timeout, 120_000),
    },
    toolName,
  };
}

/** A fetch that reaches only `origin`, never follows redirects, and stops at the deadline. */
function fetchOnlyTo(origin: string, base: typeof fetch, signal: AbortSignal): typeof fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.origin !== origin) throw new RuntimeError('net/host-not-allowed', `MCP client: ${url.origin} is not the declared server ${origin}`);
    const signals = init?.signal ? AbortSignal.any([init.signal, signal]) : signal;
    const res = await base(url, { ...init, redirect: 'manual', signal: signals });
    if (res.status >= 300 && res.status < 400) throw new RuntimeError('net/failed', `MCP server ${origin} answered with a redirect, which is not followed`);
    return res;
  };
}

function resultOf(res: CallToolResult, label: string): unknown {
  const texts = (res.content ?? []).filter((c) => c.type === 'text').map((c) => (c as { text: string }).text);
  if (res.isError) throw new RuntimeError('tool/failed', `${label} failed: ${texts.join('\n') || 'the MCP server reported an error'}`);
  if (res.structuredContent !== undefined) return res.structuredContent;
  return { content: res.content ?? [], text: texts.join('\n') };
}

export async function callMcpTool(
  manifest: SkillManifest,
  tool: ToolManifest,
  args: unknown,
  opts: { net?: NetOptions; allowSubprocess: boolean },
): Promise<unknown> {
  const { server, toolName } = mcpServerFor(manifest, tool);
  const label = `MCP tool ${toolName}`;
  if (server.transport === 'stdio') {
    throw new RuntimeError(
      opts.allowSubprocess ? 'runtime/unsupported-handler' : 'runtime/subprocess-disabled',
      opts.allowSubprocess ? `${label}: MCP servers over stdio are not run by this runtime yet` : `${label} runs a local MCP server (a subprocess), and subprocesses are off on this server (SKILLYARD_ALLOW_SUBPROCESS)`,
    );
  }
  if (!server.url) throw new RuntimeError('runtime/unsupported-handler', `${label}: the server definition has no url`);
  let url: URL;
  try {
    url = new URL(server.url);
  } catch {
    throw new RuntimeError('runtime/unsupported-handler', `${label}: the server url is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new RuntimeError('net/host-not-allowed', `${label}: only http and https servers are reached`);
  // the declared server must be on a public address, as for the net capability (SKILLYARD_NET_ALLOW allows ranges)
  await checkedAddress(url, opts.net ?? {});

  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), server.timeoutMs);
  const client = new Client({ name: 'skillyard', version: '0.1.0' });
  const transport = new StreamableHTTPClientTransport(url, { fetch: fetchOnlyTo(url.origin, opts.net?.fetch ?? globalThis.fetch, deadline.signal) });
  try {
    await client.connect(transport, { signal: deadline.signal, timeout: server.timeoutMs });
    const res = (await client.callTool({ name: toolName, arguments: (args ?? {}) as Record<string, unknown> }, undefined, {
      signal: deadline.signal,
      timeout: server.timeoutMs,
    })) as CallToolResult;
    return resultOf(res, label);
  } catch (err) {
    if (err instanceof RuntimeError) throw err;
    if (deadline.signal.aborted) throw new RuntimeError('net/timeout', `${label}: no answer from ${url.origin} within ${server.timeoutMs} ms`);
    throw new RuntimeError('net/failed', `${label}: ${(err as Error).message}`);
  } finally {
    clearTimeout(timer);
    await client.close().catch(() => {});
  }
}
