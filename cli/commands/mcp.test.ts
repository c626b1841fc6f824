// `skillyard mcp` driven by the SDK's own stdio client: list, call, a gated tool that
// appears after its token is minted (with tools/list_changed), and errors.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

const root = path.resolve(import.meta.dirname, '../..');
let client: Client;
let changed = 0;

beforeAll(async () => {
  client = new Client({ name: 'test', version: '1.0.0' });
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => void changed++);
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [path.join(root, 'bin/skillyard.mjs'), 'mcp', '--skill', 'skills/notebook', '--skill', 'skills/text-stats', '--scope', 'skillyard'],
      cwd: root,
      stderr: 'pipe',
    }),
  );
}, 30_000);

afterAll(async () => {
  await client?.close();
});

describe('skillyard mcp (stdio)', () => {
  it('lists local tools with schemas and runs one', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['count-words', 'open-notebook']));
    // annotations from what each tool declares (lib/trust): a sandboxed tool with no
    // capability is read-only; one that stores data and mints a token is not
    expect(tools.find((t) => t.name === 'count-words')?.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false, destructiveHint: false });
    expect(tools.find((t) => t.name === 'open-notebook')?.annotations).toMatchObject({ readOnlyHint: false, openWorldHint: false });
    const res = await client.callTool({ name: 'count-words', arguments: { text: 'a b c' } });
    expect(res.isError).toBeFalsy();
    expect(JSON.parse((res.content as Array<{ text: string }>)[0].text)).toMatchObject({ words: 3 });
  });

  it('unlocks the gated notebook tools after open-notebook mints its token', async () => {
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('add-note');
    await expect(client.callTool({ name: 'list-notes', arguments: {} })).rejects.toThrow(/Unknown tool/);
    const opened = await client.callTool({ name: 'open-notebook', arguments: { name: 'trip' } });
    expect(opened.structuredContent).toMatchObject({ notebook: 'trip', created: true });
    for (let i = 0; i < 50 && changed === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(changed).toBe(1);
    const tools = (await client.listTools()).tools;
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['add-note', 'list-notes']));
    // the schema a client gets is self-contained: its $ref resolves inside it
    const addNote = tools.find((t) => t.name === 'add-note')!;
    expect(addNote.inputSchema).toMatchObject({ properties: { note: { $ref: '#/$defs/note' } }, $defs: { note: { type: 'object' } } });
    const added = await client.callTool({ name: 'add-note', arguments: { note: { title: 'Pack', body: 'socks' } } });
    expect(added.isError).toBeFalsy();
    const listed = await client.callTool({ name: 'list-notes', arguments: {} });
    expect(listed.structuredContent).toMatchObject({ notes: [{ title: 'Pack', body: 'socks' }] });
  });

  it('returns tool failures with the runtime code and keeps serving', async () => {
    const bad = await client.callTool({ name: 'open-notebook', arguments: { name: 'Not Valid!' } });
    expect(bad.isError).toBe(true);
    expect((bad.content as Array<{ text: string }>)[0].text).toMatch(/^params\/invalid: /);
    const ok = await client.callTool({ name: 'count-words', arguments: { text: 'still here' } });
    expect(ok.isError).toBeFalsy();
  });
});
