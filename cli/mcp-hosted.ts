// `skillyard mcp --skill @scope/name` where tools cannot run on this machine (no
// isolated-vm, or --hosted): a stdio MCP server that forwards tools/list, tools/call and
// prompts to the registry's hosted MCP endpoint of each skill (/api/mcp/<scope>/<name>,
// the same pipeline and sandbox as the invoke API), with the user's API token. Nothing
// native is needed, so it works on every Node the CLI supports.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ToolListChangedNotificationSchema,
  type Prompt,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { PackageRef } from './fetch-package';
import { registryClient } from './registry-client';
import { CLI_VERSION } from './version';

type Upstream = { label: string; client: Client };

async function connect(base: string, token: string | null, ref: PackageRef, onListChanged: () => void): Promise<Upstream> {
  const label = `@${ref.scope}/${ref.name}`;
  const url = new URL(`${base}/api/mcp/${encodeURIComponent(ref.scope)}/${encodeURIComponent(ref.name)}`);
  const transport = new StreamableHTTPClientTransport(url, token ? { requestInit: { headers: { authorization: `Bearer ${token}` } } } : undefined);
  const client = new Client({ name: 'skillyard-cli', version: CLI_VERSION });
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => onListChanged());
  try {
    await client.connect(transport);
  } catch (e) {
    throw new Error(`cannot open ${label} on ${base}: ${(e as Error).message}`);
  }
  return { label, client };
}

/** Serves the registry-hosted tools of `refs` on stdin/stdout until the client closes. */
export async function serveHostedOverStdio(refs: PackageRef[], opts: { registry?: string }): Promise<void> {
  const { base, token } = registryClient({ registry: opts.registry });
  const server = new Server({ name: 'skillyard', version: CLI_VERSION }, { capabilities: { tools: { listChanged: true }, prompts: {} } });
  const listChanged = () => void server.sendToolListChanged().catch(() => {});
  const upstreams: Upstream[] = [];
  for (const ref of refs) {
    if (ref.spec)
      process.stderr.write(`skillyard mcp: ${ref.scope}/${ref.name}@${ref.spec}: the registry runs the version its page shows; the version is not pinned when tools run there\n`);
    upstreams.push(await connect(base, token, ref, listChanged));
  }
  // which upstream serves a tool or prompt name, learnt on each list
  const toolOwner = new Map<string, Upstream>();
  const promptOwner = new Map<string, Upstream>();

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const tools: Tool[] = [];
    toolOwner.clear();
    for (const u of upstreams) {
      for (const t of (await u.client.listTools()).tools) {
        if (toolOwner.has(t.name)) continue; // the first skill named keeps a shared name
        toolOwner.set(t.name, u);
        tools.push(t);
      }
    }
    return { tools };
  });
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    if (!toolOwner.size) for (const u of upstreams) for (const t of (await u.client.listTools()).tools) if (!toolOwner.has(t.name)) toolOwner.set(t.name, u);
    const owner = toolOwner.get(req.params.name);
    if (!owner) throw new McpError(ErrorCode.InvalidParams, `unknown tool: ${req.params.name}`);
    return owner.client.callTool({ name: req.params.name, arguments: req.params.arguments ?? {} });
  });
  server.setRequestHandler(ListPromptsRequestSchema, async () => {
    const prompts: Prompt[] = [];
    promptOwner.clear();
    for (const u of upstreams) {
      const list = await u.client.listPrompts().catch(() => ({ prompts: [] as Prompt[] }));
      for (const p of list.prompts) if (!promptOwner.has(p.name)) (promptOwner.set(p.name, u), prompts.push(p));
    }
    return { prompts };
  });
  server.setRequestHandler(GetPromptRequestSchema, async (req) => {
    const owner = promptOwner.get(req.params.name) ?? upstreams[0];
    return owner.client.getPrompt(req.params);
  });

  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => (transport.onclose = () => resolve()));
  await server.connect(transport);
  process.stdin.once('end', () => void server.close());
  process.stderr.write(`skillyard mcp: serving ${upstreams.map((u) => u.label).join(', ')} from ${base} (tools run on the registry)\n`);
  await closed;
  await Promise.all(upstreams.map((u) => u.client.close().catch(() => {})));
}
