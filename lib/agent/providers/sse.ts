// A small Server-Sent Events reader (WHATWG event-stream rules: `event:`/`data:` fields,
// multi-line data joined with \n, comments, CR/LF/CRLF line ends) over a fetch body.

import { AgentError } from '../errors';

export type SseMessage = { event: string; data: string };

export async function* readSse(body: ReadableStream<Uint8Array> | null, signal: AbortSignal): AsyncGenerator<SseMessage> {
  if (!body) throw new AgentError('provider/bad-response', 'response has no body', { retryable: true });
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buf = '';
  let event = '';
  let data: string[] = [];
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (err) {
        if (signal.aborted) throw new AgentError('provider/aborted', 'request cancelled');
        throw new AgentError('provider/stream-interrupted', `connection dropped mid-stream (${(err as Error).message})`, {
          retryable: true,
        });
      }
      if (chunk.done) {
        buf += decoder.decode();
        if (buf !== '') buf += '\n';
      } else {
        buf += decoder.decode(chunk.value, { stream: true });
      }
      let nl: number;
      while ((nl = buf.search(/\r\n|\r|\n/)) !== -1) {
        const line = buf.slice(0, nl);
        // a lone \r at the end of the buffer may be the first half of \r\n
        if (buf[nl] === '\r' && nl === buf.length - 1 && !chunk.done) break;
        buf = buf.slice(nl + (buf.startsWith('\r\n', nl) ? 2 : 1));
        if (line === '') {
          if (data.length > 0) yield { event: event || 'message', data: data.join('\n') };
          event = '';
          data = [];
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        let value = colon === -1 ? '' : line.slice(colon + 1);
        if (value.startsWith(' ')) value = value.slice(1);
        if (field === 'event') event = value;
        else if (field === 'data') data.push(value);
      }
      if (chunk.done) {
        if (data.length > 0) yield { event: event || 'message', data: data.join('\n') };
        return;
      }
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}
