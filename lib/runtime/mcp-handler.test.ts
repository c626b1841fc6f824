// A Rye skill's `mcp` tool calls a real MCP server (built with the SDK, on loopback)
// through the runtime: arguments through params validation, the result back, the
// server's errors and a wrong host refused, stdio servers refused while subprocesses are off
// and, when they are on, run in their package under the subprocess rules (a tiny SDK stdio
// server written by the test).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
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
  mcp.registerTool('query-docs', { description: 'docs', inputSchema: { libraryId: z.string(), query: z.string() }, outputSchema: { answer: z.string() } }, async (args) => {
    seen.push({ tool: 'query-docs', args });
    return { content: [{ type: 'text', text: `about ${args.query}` }], structuredContent: { answer: `${args.libraryId}: about ${args.query}` } };
  });
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

function ryeSkill(serverYaml: string, names = ['query-docs', 'always-fails'], extra: Record<string, string> = {}): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'rye-mcp-'));
  const tools = path.join(root, '.ai/tools/mcp');
  mkdirSync(path.join(tools, 'docs'), { recursive: true });
  mkdirSync(path.join(tools, 'servers'), { recursive: true });
  writeFileSync(path.join(tools, 'servers/docs.yaml'), serverYaml);
  for (const [rel, text] of Object.entries(extra)) {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  }
  for (const name of names) {
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
  return [{ manifest: res.skills[0], scope: 'test', readFile: (p) => readFile(path.join(root, p), 'utf8') }];
}

// A tiny MCP server over stdio, built with the SDK (its CommonJS build, by absolute path:
// the package runs from a temporary folder with no node_modules).
const sdk = createRequire(import.meta.url);
const STDIO_SERVER = `
const fs = require('node:fs');
const { Server } = require(${JSON.stringify(sdk.resolve('@modelcontextprotocol/sdk/server/index.js'))});
const { StdioServerTransport } = require(${JSON.stringify(sdk.resolve('@modelcontextprotocol/sdk/server/stdio.js'))});
const { ListToolsRequestSchema, CallToolRequestSchema } = require(${JSON.stringify(sdk.resolve('@modelcontextprotocol/sdk/types.js'))});
const server = new Server({ name: 'local-docs', version: '1.0.0' }, { capabilities: { tools: {} } });
const tools = ['query-docs', 'always-fails', 'hangs', 'spawns'].map((name) => ({ name, inputSchema: { type: 'object' } }));
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, async ({ params: { name, arguments: args } }) => {
  if (name === 'always-fails') return { isError: true, content: [{ type: 'text', text: 'upstream quota exceeded' }] };
  if (name === 'hangs') return new Promise(() => {});
  if (name === 'spawns') {
    // a helper the server leaves running (in its own process group, as a child)
    const child = require('node:child_process').spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    return { content: [{ type: 'text', text: 'spawned' }], structuredContent: { pid: child.pid } };
  }
  return {
    content: [{ type: 'text', text: 'ok' }],
    structuredContent: {
      answer: args.libraryId + ': about ' + args.query,
      serverFileInCwd: fs.existsSync('server/docs-server.cjs'),
      home: process.env.HOME,
      secret: process.env.SKILLYARD_TEST_PARENT_SECRET ?? null,
      declared: process.env.DOCS_MODE ?? null,
      mode: (fs.statSync('server/docs-server.cjs').mode & 0o777).toString(8),
    },
  };
});
server.connect(new StdioServerTransport());
`;
const stdioServer = (timeout = 10) =>
  [
    'tool_type: mcp_server',
    'executor_id: null',
    'category: mcp/servers',
    'version: 1.0.0',
    "description: 'docs'",
    'config:',
    '  transport: stdio',
    `  command: ${JSON.stringify(process.execPath)}`,
    '  args: [server/docs-server.cjs]',
    '  env: {DOCS_MODE: local}',
    `  timeout: ${timeout}`,
    '',
  ].join('\n');

const httpServer = (url: string) =>
  [
    'tool_type: mcp_server',
    'executor_id: null',
    'category: mcp/servers',
    'version: 1.0.0',
    "description: 'docs'",
    'config:',
    '  transport: http',
    '  timeout: 5',
    `  url: ${url}`,
    '',
  ].join('\n');

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

  it("turns the server's error result into tool/failed with its text", async () => {
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

  it('runs an stdio MCP server in its package when subprocesses are on: package root as cwd, read-only, no inherited secrets', async () => {
    process.env.SKILLYARD_TEST_PARENT_SECRET = 'do-not-pass-me';
    try {
      const skills = await load(ryeSkill(stdioServer(), ['query-docs', 'always-fails'], { 'server/docs-server.cjs': STDIO_SERVER }));
      const { manager } = createManager(createFakeSandbox(), skills, { allowSubprocess: true });
      const name = skills[0].manifest.name;
      const out = (await manager.invoke(`${name}/query-docs`, { libraryId: '/local/docs', query: 'stdio' })) as Record<string, unknown>;
      expect(out).toMatchObject({ answer: '/local/docs: about stdio', serverFileInCwd: true, secret: null, declared: 'local', mode: '444' });
      expect(out.home).not.toBe(os.homedir());
      await expect(manager.invoke(`${name}/always-fails`, {})).rejects.toMatchObject({ code: 'tool/failed', message: expect.stringContaining('upstream quota exceeded') });
    } finally {
      delete process.env.SKILLYARD_TEST_PARENT_SECRET;
    }
  });

  it.skipIf(!existsSync('/usr/bin/setsid') && !existsSync('/bin/setsid'))('ends what an stdio MCP server started, with the server (its own process group)', async () => {
    const skills = await load(ryeSkill(stdioServer(), ['spawns'], { 'server/docs-server.cjs': STDIO_SERVER }));
    const { manager } = createManager(createFakeSandbox(), skills, { allowSubprocess: true });
    const { pid } = (await manager.invoke(`${skills[0].manifest.name}/spawns`, {})) as { pid: number };
    // gone, or a zombie waiting for init
    const alive = () => {
      try {
        return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
      } catch {
        return false;
      }
    };
    const until = Date.now() + 5_000;
    while (alive() && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(alive()).toBe(false);
  });

  it('stops an stdio MCP server that does not answer within its timeout', async () => {
    const skills = await load(ryeSkill(stdioServer(1), ['hangs'], { 'server/docs-server.cjs': STDIO_SERVER }));
    const { manager } = createManager(createFakeSandbox(), skills, { allowSubprocess: true });
    // its own timeout answers (the test's timeout would fail a call that waited for ever)
    await expect(manager.invoke(`${skills[0].manifest.name}/hangs`, {})).rejects.toMatchObject({ code: 'runtime/timeout' });
  });

  it('answers an stdio server that cannot start with runtime/subprocess-failed', async () => {
    const yaml = stdioServer().replace(JSON.stringify(process.execPath), '/nonexistent/mcp-server');
    const skills = await load(ryeSkill(yaml, ['query-docs'], { 'server/docs-server.cjs': STDIO_SERVER }));
    const { manager } = createManager(createFakeSandbox(), skills, { allowSubprocess: true });
    await expect(manager.invoke(`${skills[0].manifest.name}/query-docs`, { libraryId: 'a', query: 'b' })).rejects.toMatchObject({ code: 'runtime/subprocess-failed' });
  });

  it('refuses an stdio MCP server while subprocesses are off, and says so', async () => {
    const yaml = [
      'tool_type: mcp_server',
      'executor_id: null',
      'category: mcp/servers',
      'version: 1.0.0',
      "description: 'docs'",
      'config:',
      '  transport: stdio',
      '  command: npx',
      '',
    ].join('\n');
    const skills = await load(ryeSkill(yaml));
    const { manager } = createManager(createFakeSandbox(), skills, loopback);
    await expect(manager.invoke(`${skills[0].manifest.name}/query-docs`, { libraryId: 'a', query: 'b' })).rejects.toMatchObject({
      code: 'runtime/subprocess-disabled',
    });
  });
});
