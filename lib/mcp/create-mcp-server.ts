// One MCP server over a tool host: tools/list and tools/call run through the same
// pipeline, sandbox, capabilities and token gate as the invoke API; each skill's
// instructions are an MCP prompt. A tool the caller may not see is answered exactly as
// an unknown one. A failed call is a tool result with isError and the runtime's code.
// Prompts come from the skills the caller may still see (McpToolHost.visibleSkills).
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { McpToolHost } from './tool-host';
import { lockedToolsText } from './locked-tools';
import { nameTools, type NamedTool } from './tool-names';
import { inputSchemaOf, isPlainObject, outputSchemaOf } from './tool-schemas';
import { toolAnnotationsFor } from '../trust';

export const MCP_SERVER_NAME = 'skillyard';
export const MCP_SERVER_VERSION = '0.1.0';

export type McpServerOptions = {
  /** called after every tools/call, so a minted token can announce new tools */
  onToolCalled?: () => void;
  log?: (event: string, fields: Record<string, unknown>) => void;
};

function toMcpTool({ mcpName, tool }: NamedTool): Tool {
  const outputSchema = outputSchemaOf(tool.returns);
  return {
    name: mcpName,
    title: tool.name,
    description: tool.description || `${tool.skill}/${tool.name}`,
    inputSchema: inputSchemaOf(tool.params) as Tool['inputSchema'],
    ...(outputSchema ? { outputSchema: outputSchema as Tool['outputSchema'] } : {}),
    annotations: { title: tool.name, ...toolAnnotationsFor(tool) },
    _meta: { 'skillyard/ref': tool.ref, 'skillyard/skill': tool.skill, 'skillyard/capabilities': tool.capabilities },
  };
}

function errorCodeOf(err: unknown): { code: string; message: string } {
  if (isPlainObject(err) || err instanceof Error) {
    const e = err as { code?: unknown; message?: unknown };
    if (typeof e.code === 'string') return { code: e.code, message: String(e.message ?? '') };
  }
  return { code: 'internal', message: 'the tool failed unexpectedly' };
}

export function toolResult(result: unknown, tool: NamedTool['tool']): CallToolResult {
  const text = result === undefined ? '' : typeof result === 'string' ? result : JSON.stringify(result, null, 2);
  const out: CallToolResult = { content: [{ type: 'text', text }] };
  if (outputSchemaOf(tool.returns) && isPlainObject(result)) out.structuredContent = result;
  return out;
}

export function createMcpServer(host: McpToolHost, opts: McpServerOptions = {}): Server {
  const skills = host.skills();
  const server = new Server(
    { name: MCP_SERVER_NAME, version: MCP_SERVER_VERSION, title: 'Skillyard' },
    {
      capabilities: { tools: { listChanged: true }, prompts: { listChanged: false } },
      instructions:
        (skills.length === 1
          ? `Tools of the skill ${skills[0].ref}: ${skills[0].description}`
          : `Tools of the skills ${skills.map((s) => s.ref).join(', ')} from the Skillyard registry.`) +
        lockedToolsText(skills.map((s) => ({ ref: s.ref, locked: s.locked ?? [] }))),
    },
  );

  const findTool = async (name: string) => (await host.listVisibleTools().then(nameTools)).find((t) => t.mcpName === name);

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: nameTools(await host.listVisibleTools()).map(toMcpTool),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const named = await findTool(req.params.name);
    if (!named) throw new McpError(ErrorCode.InvalidParams, `tool/not-found: Unknown tool: ${req.params.name}`);
    try {
      const result = await host.invoke(named.tool.ref, req.params.arguments ?? {});
      return toolResult(result, named.tool);
    } catch (err) {
      const { code, message } = errorCodeOf(err);
      if (code === 'internal') opts.log?.('mcp.tool-call.unexpected', { tool: named.tool.ref, error: err instanceof Error ? err.message : String(err) });
      return { isError: true, content: [{ type: 'text', text: `${code}: ${message}` }], _meta: { 'skillyard/code': code } };
    } finally {
      opts.onToolCalled?.();
    }
  });

  const currentSkills = async () => (host.visibleSkills ? host.visibleSkills() : skills);

  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: (await currentSkills())
      .filter((s) => s.instructions)
      .map((s) => ({ name: s.name, title: s.ref, description: `How to use ${s.ref}: ${s.description}`.slice(0, 1024) })),
  }));

  server.setRequestHandler(GetPromptRequestSchema, async (req) => {
    const skill = (await currentSkills()).find((s) => s.name === req.params.name && s.instructions);
    if (!skill) throw new McpError(ErrorCode.InvalidParams, `prompt/not-found: Unknown prompt: ${req.params.name}`);
    return {
      description: `Instructions of ${skill.ref}`,
      messages: [{ role: 'user', content: { type: 'text', text: skill.instructions! } }],
    };
  });

  return server;
}
