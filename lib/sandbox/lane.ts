// How the pool and one sandbox worker exchange frames (frame.ts): the pipe that is the
// worker's fd 3. What arrives on it through the event loop goes to `fromPipe`; what a
// polling side (idle-spin.ts) reads itself goes through `poll`. (A shared-memory lane
// was measured against it and removed: docs/sandbox.md, "Measured with and without".)
import type { Duplex } from 'node:stream';
import { FrameReader, writeFrame } from './frame';
import { pipeSource, type PollSource } from './idle-spin';

export interface Lane extends PollSource {
  /** sends one encoded frame */
  send(frame: Buffer): void;
  /** bytes the event loop read from the pipe */
  fromPipe(chunk: Buffer): void;
  /** delivers everything that has arrived (the peer exited: its last frames first) */
  drain(): void;
}

export type LaneEnds = {
  channel: Duplex;
  /** the pipe's descriptor now (-1 once closed: its number may name another file later) */
  fd: () => number;
  onFrame: (message: unknown) => void;
  onBroken: (why: string) => void;
};

export function pipeLane(ends: LaneEnds): Lane {
  const reader = new FrameReader(ends.onFrame, ends.onBroken);
  const source = pipeSource(ends.fd, (chunk) => reader.push(chunk));
  return {
    send: (frame) => writeFrame(ends.channel, ends.fd(), frame),
    poll: () => source.poll(),
    fromPipe: (chunk) => reader.push(chunk),
    drain: () => {},
  };
}
