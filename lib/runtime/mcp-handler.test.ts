// A Rye skill's `mcp` tool calls a real MCP server (built with the SDK, on loopback)
// through the runtime: arguments through params validation, the result back, the
// server's errors and a wrong host refused, stdio servers refused while subprocesses are off.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { readSkillsFromPath } from '../skills';
import { createFakeSandbox } from './testing/fake-sandbox';
import { createManager } from './testing/manager-factory';
import type { LoadedSkill } from './types';

// the test server is on loopback, which the operator must allow (SKILLYARD_NET_ALLOW)
const loopback = { providers: { net: { allowRanges: ['127.0.0.1/32'] } } };
let server: http.Server;
let port: number;
const seen: Array<{ tool: string; args: unknown }> = [];

function docsServer() {
  const mcp = new McpServer({ name: 'docs', version: '1.0.0' });
  mcp.registerTool(
    'query-docs',
    { description: 'docs', inputSchema: { libraryId: z.string(), query: z.string() }, outputSchema: { answer: z.string() } },
    async (args) => {
      seen.push({ tool: 'query-docs', args });
      return { content: [{ type: 'text', text: `about ${args.query}` }], structuredContent: { answer: `${args.libraryId}: about ${args.query}` } };
    },
  );
  mcp.registerTool('always-fails', { description: 'fails', inputSchema: {} }, async () => ({ isError: true, content: [{ type: 'text', text: 'upstream quota exceeded' }] }));
  return mcp;
}

beforeAll(async () => {
  server = http.createServer(async (req, res) => {
    // stateless: a fresh server and transport per request, as the SDK's examples do
    const mcp = docsServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => void transport.close());
    await mcp.connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise((r) => server.close(r)));

function ryeSkill(serverYaml: string): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'rye-mcp-'));
  const tools = path.join(root, '.ai/tools/mcp');
  mkdirSync(path.join(tools, 'docs'), { recursive: true });
  mkdirSync(path.join(tools, 'servers'), { recursive: true });
  writeFileSync(path.join(tools, 'servers/docs.yaml'), serverYaml);
  for (const name of ['query-docs', 'always-fails']) {
    writeFileSync(
      path.join(tools, `docs/${name}.yaml`),
      [
        'tool_type: mcp',
        'executor_id: rye/core/runtimes/mcp/http',
        'category: mcp/docs',
        'version: 1.0.0',
        `description: '${name}'`,
        'config:',
        '  server: mcp/servers/docs',
        `  tool_name: ${name}`,
        ...(name === 'query-docs'
          ? ['input_schema:', '  type: object', '  properties:', '    libraryId: {type: string}', '    query: {type: string}', '  required: [libraryId, query]']
          : []),
        '',
      ].join('\n'),
    );
  }
  return root;
}

async function load(root: string): Promise<LoadedSkill[]> {
  const res = await readSkillsFromPath(root);
  expect(res.skills).toHaveLength(1);
  return [{ manifest: res.skills[0], scope: 'test', readFile: async () => '' }];
}

const httpServer = (url: string) => ['tool_type: mcp_server', 'executor_id: null', 'category: mcp/servers', 'version: 1.0.0', "description: 'docs'", 'config:', '  transport: http', '  timeout: 5', `  url: ${url}`, ''].join('\n');

describe('handler kind mcp', () => {
  it('calls the declared MCP server and returns its structured result', async () => {
    const skills = await load(ryeSkill(httpServer(`http://127.0.0.1:${port}/mcp`)));
    const { manager } = createManager(createFakeSandbox(), skills, loopback);
    const name = skills[0].manifest.name;
    const out = await manager.invoke(`${name}/query-docs`, { libraryId: '/vercel/next.js', query: 'routing' });
    expect(out).toEqual({ answer: '/vercel/next.js: about routing' });
    expect(seen.at(-1)).toEqual({ tool: 'query-docs', args: { libraryId: '/vercel/next.js', query: 'routing' } });
    await expect(manager.invoke(`${name}/query-docs`, { libraryId: 1 })).rejects.toMatchObject({ code: 'params/invalid' });
  });

  it('turns the server\'s error result into tool/failed with its text', async () => {
    const skills = await load(ryeSkill(httpServer(`http://127.0.0.1:${port}/mcp`)));
    const { manager } = createManager(createFakeSandbox(), skills, loopback);
    await expect(manager.invoke(`${skills[0].manifest.name}/always-fails`, {})).rejects.toMatchObject({
      code: 'tool/failed',
      message: expect.stringContaining('upstream quota exceeded'),
    });
  });

  it('reaches no other host than the declared server and follows no redirect', async () => {
    const redirector = http.createServer((_req, res) => res.writeHead(307, { location: `http://127.0.0.1:${port}/mcp` }).end());
    await new Promise<void>((r) => redirector.listen(0, '127.0.0.1', r));
    try {
      const skills = await load(ryeSkill(httpServer(`http://127.0.0.1:${(redirector.address() as AddressInfo).port}/mcp`)));
      const { manager } = createManager(createFakeSandbox(), skills, loopback);
      await expect(manager.invoke(`${skills[0].manifest.name}/query-docs`, { libraryId: 'a', query: 'b' })).rejects.toMatchObject({
        code: expect.stringMatching(/^net\//),
      });
      expect(seen.filter((s) => (s.args as { libraryId: string }).libraryId === 'a')).toHaveLength(0);
    } finally {
      await new Promise((r) => redirector.close(r));
    }
  });

  it('refuses a server on a private or loopback address unless the operator allows it', async () => {
    const skills = await load(ryeSkill(httpServer(`http://127.0.0.1:${port}/mcp`)));
    const { manager } = createManager(createFakeSandbox(), skills);
    const before = seen.length;
    await expect(manager.invoke(`${skills[0].manifest.name}/query-docs`, { libraryId: 'x', query: 'y' })).rejects.toMatchObject({
      code: 'net/host-not-allowed',
      message: expect.stringContaining('loopback'),
    });
    expect(seen.length).toBe(before);
  });

  it('refuses an stdio MCP server while subprocesses are off, and says so', async () => {
    const yaml = ['tool_type: mcp_server', 'executor_id: null', 'category: mcp/servers', 'version: 1.0.0', "description: 'docs'", 'config:', '  transport: stdio', '  command: npx', ''].join('\n');
    const skills = await load(ryeSkill(yaml));
    const { manager } = createManager(createFakeSandbox(), skills, loopback);
    await expect(manager.invoke(`${skills[0].manifest.name}/query-docs`, { libraryId: 'a', query: 'b' })).rejects.toMatchObject({
      code: 'runtime/subprocess-disabled',
    });
  });
});
