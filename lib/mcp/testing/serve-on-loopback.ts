// An HTTP server on 127.0.0.1 for MCP tests: the route behind a real socket, so the SDK's
// client speaks to it as to a deployment; `close` ends open streams too.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export async function serveOnLoopback(listener: http.RequestListener): Promise<{ base: string; close(): Promise<void> }> {
  const server = http.createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
