// A loopback HTTP server for provider tests: each request is recorded and answered by
// the test's handler (which may stream SSE, fail, or drop the connection).

import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type RecordedRequest = { method: string; url: string; headers: http.IncomingHttpHeaders; body: any };
export type Handler = (req: RecordedRequest, res: http.ServerResponse, n: number) => void | Promise<void>;

export async function startLocalServer(handler: Handler): Promise<{ url: string; requests: RecordedRequest[]; close(): Promise<void> }> {
  const requests: RecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        /* keep text */
      }
      const rec = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      requests.push(rec);
      Promise.resolve(handler(rec, res, requests.length)).catch((err) => {
        res.destroy(err as Error);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sseHead(res: http.ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
}

/** OpenAI style: `data: {json}` lines, then `data: [DONE]`. */
export function openaiChunks(res: http.ServerResponse, chunks: unknown[], done = true): void {
  sseHead(res);
  for (const c of chunks) res.write(`data: ${JSON.stringify(c)}\n\n`);
  if (done) res.write('data: [DONE]\n\n');
  res.end();
}

/** Anthropic style: `event: <type>` + `data: {json}`. */
export function anthropicEvents(res: http.ServerResponse, events: Array<Record<string, unknown>>): void {
  sseHead(res);
  for (const e of events) res.write(`event: ${String(e.type)}\ndata: ${JSON.stringify(e)}\n\n`);
  res.end();
}

export const textChunk = (content: string) => ({ choices: [{ index: 0, delta: { content } }] });
export const finishChunk = (reason = 'stop') => ({ choices: [{ index: 0, delta: {}, finish_reason: reason }] });

/** An Anthropic message streaming `text` and then optional tool_use blocks (input split in two). */
export function anthropicMessage(text: string, tools: Array<{ id: string; name: string; input: unknown }> = []): Array<Record<string, unknown>> {
  const ev: Array<Record<string, unknown>> = [{ type: 'message_start', message: { id: 'msg_1', role: 'assistant', content: [], usage: { input_tokens: 11, output_tokens: 1 } } }];
  let index = 0;
  if (text) {
    ev.push({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
    for (const part of text.match(/.{1,4}/gs) ?? []) ev.push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: part } });
    ev.push({ type: 'content_block_stop', index });
    index++;
  }
  for (const t of tools) {
    ev.push({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: t.id, name: t.name, input: {} } });
    const json = JSON.stringify(t.input);
    const mid = Math.floor(json.length / 2);
    ev.push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: json.slice(0, mid) } });
    ev.push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: json.slice(mid) } });
    ev.push({ type: 'content_block_stop', index });
    index++;
  }
  ev.push({ type: 'message_delta', delta: { stop_reason: tools.length ? 'tool_use' : 'end_turn' }, usage: { output_tokens: 7 } });
  ev.push({ type: 'message_stop' });
  return ev;
}
