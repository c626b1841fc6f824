// How the pool and one sandbox worker exchange frames (frame.ts). Two kinds, the same to
// their users:
//   - shared memory (shm-lane.ts): a byte ring each way in memory both processes map, the
//     pipe only a doorbell for a side that is asleep (and for a dying worker's last word);
//     a frame costs no system call while the other side polls;
//   - the pipe alone (here): when the native helper is not built (no C compiler at install,
//     not Linux) or SKILLYARD_SANDBOX_LANE=pipe.
// Either way the worker's pipe is fd 3, and what arrives on it through the event loop goes
// to `fromPipe`.
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
