// Serves an MCP tool host over stdio (newline-delimited JSON-RPC on stdin/stdout); the
// process's own messages go to stderr. After each call the tool list is compared, so a
// client hears tools/list_changed when a minted token unlocks more tools.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createMcpServer } from './create-mcp-server';
import type { McpToolHost } from './tool-host';

export async function serveMcpOverStdio(host: McpToolHost, io?: { stdin: NodeJS.ReadableStream; stdout: NodeJS.WritableStream }): Promise<{ closed: Promise<void> }> {
  let known = (await host.listVisibleTools())
    .map((t) => t.ref)
    .sort()
    .join('\n');
  const server = createMcpServer(host, {
    log: (event, fields) => process.stderr.write(`${JSON.stringify({ event, ...fields })}\n`),
    onToolCalled: () =>
      void host.listVisibleTools().then((tools) => {
        const now = tools
          .map((t) => t.ref)
          .sort()
          .join('\n');
        if (now !== known) {
          known = now;
          void server.sendToolListChanged().catch(() => {});
        }
      }),
  });
  const stdin = io?.stdin ?? process.stdin;
  const transport = new StdioServerTransport(stdin as never, (io?.stdout ?? process.stdout) as never);
  const closed = new Promise<void>((resolve) => (transport.onclose = () => resolve()));
  await server.connect(transport);
  // the client closing our stdin ends the session
  stdin.once('end', () => void server.close());
  return { closed };
}
