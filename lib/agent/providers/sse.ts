// Server-Sent Events from a model provider's fetch body, parsed by eventsource-parser
// (WHATWG event-stream rules: `event:`/`data:` fields, multi-line data joined with \n,
// comments, CR/LF/CRLF line ends). A last event without its closing blank line is still
// delivered (some servers end the stream right after it).

import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { AgentError } from '../errors';

export type SseMessage = { event: string; data: string };

export async function* readSse(body: ReadableStream<Uint8Array> | null, signal: AbortSignal): AsyncGenerator<SseMessage> {
  if (!body) throw new AgentError('provider/bad-response', 'response has no body', { retryable: true });
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let ready: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (m) => ready.push(m) });
  const drain = function* (): Generator<SseMessage> {
    const batch = ready;
    ready = [];
    for (const m of batch) yield { event: m.event || 'message', data: m.data };
  };
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
        // end the last line and the last event, as if the server had sent the blank line
        parser.feed(`${decoder.decode()}\n\n`);
        yield* drain();
        return;
      }
      parser.feed(decoder.decode(chunk.value, { stream: true }));
      yield* drain();
    }
  } finally {
    reader.cancel().catch(() => {}); // the body may be finished or errored already: nothing to release
  }
}
