// Handler kind `mcp` (Rye MCP tool definitions): calls the tool on the MCP server that
// the package declares (a Rye `mcp_server` component), over Streamable HTTP. The server's
// host is the only one the call may reach, with the net capability's rules: http(s) only,
// no redirects, the operator's network guard (providers.net.fetch), a deadline. Servers
// over stdio are subprocesses: only when the operator allows subprocesses, and then under
// the rules of Python and bash handlers (subprocess.ts): the package read-only with its
// root as the working directory, a clean environment (no inherited secrets), the deadline
// (the server is killed at it), bounded output. Where util-linux's `setsid` exists the
// server starts as the leader of a process group of its own, and the whole group (what
// the server started too) is killed when the call ends.
import { existsSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { SkillManifest, ToolManifest } from '../skills';
import type { NetOptions } from './capabilities/types';
import { RuntimeError } from './errors';
import { checkedAddress } from './capabilities/net';
import { cleanEnv, DEFAULT_MAX_OUTPUT_BYTES, withPackageDir, type PackageFiles } from './subprocess';

export type McpServerConfig = { transport: string; url?: string; timeoutMs: number; command?: string; args: string[]; env: Record<string, string> };

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
      args: Array.isArray(config.args) ? config.args.map(String) : [],
      env:
        config.env && typeof config.env === 'object' && !Array.isArray(config.env)
          ? Object.fromEntries(Object.entries(config.env as Record<string, unknown>).map(([k, v]) => [k, String(v)]))
          : {},
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

const STDERR_TAIL = 2000;

/** Calls the tool on a server the package starts as a subprocess, speaking MCP over its stdin/stdout. */
async function callStdioTool(server: McpServerConfig, toolName: string, args: unknown, label: string, pkg: PackageFiles): Promise<unknown> {
  if (!server.command) throw new RuntimeError('runtime/unsupported-handler', `${label}: the stdio server definition has no command`);
  const command = server.command;
  // the SDK spawns without a process group of its own: setsid gives the server one (same pid)
  const setsid = SETSID.find((p) => existsSync(p));
  return withPackageDir(pkg, async ({ skillDir, workDir }) => {
    const transport = new StdioClientTransport({
      command: setsid ?? command,
      args: setsid ? [command, ...server.args] : server.args,
      cwd: skillDir,
      // the package's own variables, then the clean environment (PATH, HOME=workDir, LANG);
      // the SDK adds only LOGNAME, SHELL, TERM and USER of this process, never its secrets
      env: { ...server.env, ...cleanEnv(workDir) },
      stderr: 'pipe',
      maxBufferSize: DEFAULT_MAX_OUTPUT_BYTES,
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL);
    });
    const deadline = new AbortController();
    /** the server, and with setsid its whole group (killed while its leader lives, so the id is still the group's) */
    const kill = () => {
      const pid = transport.pid;
      if (!pid) return;
      for (const target of setsid ? [-pid, pid] : [pid]) {
        try {
          process.kill(target, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    };
    // the server may ignore its closed stdin: end it at the deadline
    const timer = setTimeout(() => {
      deadline.abort();
      kill();
    }, server.timeoutMs);
    const client = new Client({ name: 'skillyard', version: '0.1.0' });
    try {
      return await connectAndCall(client, transport, toolName, args, label, deadline.signal, server.timeoutMs);
    } catch (err) {
      if (err instanceof RuntimeError) throw err;
      if (deadline.signal.aborted) throw new RuntimeError('runtime/timeout', `${label}: the stdio server did not answer within ${server.timeoutMs} ms`);
      const tail = stderr.trim() ? ` (stderr: ${stderr.trim()})` : '';
      throw new RuntimeError('runtime/subprocess-failed', `${label}: ${(err as Error).message}${tail}`);
    } finally {
      clearTimeout(timer);
      // what the server started goes with it (a server on its own is ended by close)
      if (setsid) kill();
      await client.close().catch(() => {});
    }
  });
}

const SETSID = ['/usr/bin/setsid', '/bin/setsid'];

/** One tools/call over a connected transport, both bounded by the server's deadline. */
async function connectAndCall(
  client: Client,
  transport: Parameters<Client['connect']>[0],
  toolName: string,
  args: unknown,
  label: string,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<unknown> {
  await client.connect(transport, { signal, timeout: timeoutMs });
  const res = (await client.callTool({ name: toolName, arguments: (args ?? {}) as Record<string, unknown> }, undefined, { signal, timeout: timeoutMs })) as CallToolResult;
  return resultOf(res, label);
}

export async function callMcpTool(
  manifest: SkillManifest,
  tool: ToolManifest,
  args: unknown,
  opts: { net?: NetOptions; allowSubprocess: boolean; package?: PackageFiles },
): Promise<unknown> {
  const { server, toolName } = mcpServerFor(manifest, tool);
  const label = `MCP tool ${toolName}`;
  if (server.transport === 'stdio') {
    if (!opts.allowSubprocess) {
      throw new RuntimeError(
        'runtime/subprocess-disabled',
        `${label} runs a local MCP server (a subprocess), and subprocesses are off on this server (SKILLYARD_ALLOW_SUBPROCESS)`,
      );
    }
    return callStdioTool(server, toolName, args, label, opts.package ?? { files: manifest.files });
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
    return await connectAndCall(client, transport, toolName, args, label, deadline.signal, server.timeoutMs);
  } catch (err) {
    if (err instanceof RuntimeError) throw err;
    if (deadline.signal.aborted) throw new RuntimeError('net/timeout', `${label}: no answer from ${url.origin} within ${server.timeoutMs} ms`);
    throw new RuntimeError('net/failed', `${label}: ${(err as Error).message}`);
  } finally {
    clearTimeout(timer);
    await client.close().catch(() => {});
  }
}
