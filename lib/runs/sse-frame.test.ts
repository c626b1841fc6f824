// The run event stream's bytes, checked exactly, and read back with eventsource-parser
// (the parsing rules of a browser's EventSource).
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { describe, expect, it } from 'vitest';
import { END_FRAME, HEARTBEAT_FRAME, dataLines, eventFrame } from './sse-frame';

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

function parse(raw: string) {
  const messages: EventSourceMessage[] = [];
  const comments: string[] = [];
  const parser = createParser({ onEvent: (m) => messages.push(m), onComment: (c) => comments.push(c) });
  // fed in 3-byte pieces: framing must not depend on how the network cuts it
  for (let i = 0; i < raw.length; i += 3) parser.feed(raw.slice(i, i + 3));
  return { messages, comments };
}

const event = { seq: 7, type: 'tool-result', data: { result: 'two\nlines', seq: 99 }, createdAt: '2026-01-01T00:00:00.000Z' };

describe('run event stream framing', () => {
  it('an event is `id: <seq>`, one data line of JSON, and a blank line', () => {
    expect(text(eventFrame(event))).toBe('id: 7\ndata: {"result":"two\\nlines","seq":7,"type":"tool-result","createdAt":"2026-01-01T00:00:00.000Z"}\n\n');
  });

  it('the end event and the heartbeat comment', () => {
    expect(text(END_FRAME)).toBe('event: end\ndata: {}\n\n');
    expect(text(HEARTBEAT_FRAME)).toBe(': keep-alive\n\n');
  });

  it('a payload with LF, CR and CRLF becomes one data line per line, and parses back to the same text', () => {
    const payload = 'one\ntwo\rthree\r\nfour';
    expect(dataLines(payload)).toBe('data: one\ndata: two\ndata: three\ndata: four\n');
    const { messages } = parse(`id: 1\n${dataLines(payload)}\n`);
    expect(messages).toEqual([{ id: '1', event: undefined, data: 'one\ntwo\nthree\nfour' }]);
  });

  it('a stream of events, heartbeats and the end parses to the events in order with their ids', () => {
    const raw = [eventFrame({ ...event, seq: 1 }), HEARTBEAT_FRAME, eventFrame({ ...event, seq: 2, type: 'run-end', data: { status: 'succeeded' } }), END_FRAME].map(text).join('');
    const { messages, comments } = parse(raw);
    expect(messages.map((m) => [m.id, m.event ?? 'message'])).toEqual([
      ['1', 'message'],
      ['2', 'message'],
      [undefined, 'end'],
    ]);
    expect(JSON.parse(messages[1].data)).toMatchObject({ seq: 2, type: 'run-end', status: 'succeeded' });
    expect(comments).toEqual(['keep-alive']);
    // the last id a client holds (its Last-Event-ID on reconnect) is the last event's seq
    expect(messages.filter((m) => m.id !== undefined).at(-1)?.id).toBe('2');
  });
});
