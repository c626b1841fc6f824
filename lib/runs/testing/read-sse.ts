// Reads a run's event stream to its end with eventsource-parser (the same parsing rules
// as a browser's EventSource), keeping the raw text for byte-level assertions.
import { createParser, type EventSourceMessage } from 'eventsource-parser';

export type ParsedSse = {
  raw: string;
  messages: EventSourceMessage[];
  comments: string[];
  /** the stored events: id, and the JSON data parsed */
  events: Array<{ id: number; data: Record<string, unknown> }>;
  ended: boolean;
};

export async function readSse(stream: ReadableStream<Uint8Array>): Promise<ParsedSse> {
  const messages: EventSourceMessage[] = [];
  const comments: string[] = [];
  const parser = createParser({
    onEvent: (m) => messages.push(m),
    onComment: (c) => comments.push(c),
  });
  const decoder = new TextDecoder();
  let raw = '';
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) {
    const text = decoder.decode(chunk, { stream: true });
    raw += text;
    parser.feed(text);
  }
  return {
    raw,
    messages,
    comments,
    events: messages.filter((m) => m.event === undefined && m.id !== undefined).map((m) => ({ id: Number(m.id), data: JSON.parse(m.data) })),
    ended: messages.some((m) => m.event === 'end'),
  };
}
