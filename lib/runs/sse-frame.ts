// The bytes of the run event stream (text/event-stream, WHATWG HTML "Server-sent
// events"): each stored event as `id: <seq>` and one `data:` line per line of its JSON;
// `event: end` when the run is over; a comment line as the heartbeat. Tested byte for
// byte in sse-frame.test.ts and parsed with eventsource-parser there and by clients.
import 'server-only';
import type { StoredRunEvent } from './run-event-bus';

const encoder = new TextEncoder();

/** `data:` lines for a payload (CR, LF and CRLF each start a new line, as the parser splits them). */
export function dataLines(payload: string): string {
  return payload
    .split(/\r\n|\r|\n/)
    .map((line) => `data: ${line}\n`)
    .join('');
}

export function eventFrame(event: StoredRunEvent): Uint8Array {
  // the run's seq wins over the agent's own `seq` inside the data (they differ once the run adds events)
  const payload = JSON.stringify({ ...event.data, seq: event.seq, type: event.type, createdAt: event.createdAt });
  return encoder.encode(`id: ${event.seq}\n${dataLines(payload)}\n`);
}

/** frames as one chunk, for one write (a batch of one is the frame itself, not a copy) */
export function joinFrames(frames: Uint8Array[]): Uint8Array {
  return frames.length === 1 ? frames[0] : Buffer.concat(frames);
}

export const END_FRAME = encoder.encode('event: end\ndata: {}\n\n');
export const HEARTBEAT_FRAME = encoder.encode(': keep-alive\n\n');
