// Pool <-> worker frames on a dedicated pipe (fd 3 in the worker): a 4-byte little-endian
// length, then the message as UTF-8 JSON. One write and one parse per message, no Node
// IPC layer; guest payloads inside (args, results) stay JSON text, parsed once at the end.
import { writeSync } from 'node:fs';
import type { Writable } from 'node:stream';

export const MAX_FRAME_BYTES = 256 * 2 ** 20;

export function encodeFrame(message: unknown): Buffer {
  const json = JSON.stringify(message);
  const length = Buffer.byteLength(json);
  const frame = Buffer.allocUnsafe(4 + length);
  frame.writeUInt32LE(length, 0);
  frame.write(json, 4, 'utf8');
  return frame;
}

/**
 * Writes a frame on `channel` (whose descriptor is `fd`, -1 when unknown): straight to the
 * pipe when nothing is queued before it (no stream machinery); what a full pipe does not
 * take goes behind it through the stream.
 */
export function writeFrame(channel: Writable, fd: number, frame: Buffer): void {
  let written = 0;
  if (fd >= 0 && channel.writableLength === 0) {
    try {
      written = writeSync(fd, frame);
    } catch {
      written = 0; // EAGAIN, or a closed pipe: the stream reports it
    }
  }
  if (written < frame.length) channel.write(written === 0 ? frame : frame.subarray(written));
}

/**
 * Splits a byte stream into frames; a frame larger than MAX_FRAME_BYTES is a broken peer.
 * Linear in the bytes pushed: a frame that arrives in many chunks is joined once, when its
 * last byte is in (joining at every chunk was quadratic: a 64 MB host-call argument from
 * a guest held the web process's event loop for ~40 s). A pushed chunk may be a view of a
 * buffer its caller reuses (idle-spin.ts): whatever is kept past `push` is copied.
 */
export class FrameReader {
  /** bytes of the frame in progress, owned copies; when they total 4 or more, the first holds the whole length prefix */
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(
    private readonly onFrame: (message: unknown) => void,
    private readonly onBroken: (why: string) => void,
  ) {}

  push(chunk: Buffer): void {
    let data = chunk;
    if (this.pendingBytes > 0) {
      if (this.pendingBytes < 4) {
        // not even the length yet: join the few bytes held with this chunk and start over
        data = Buffer.concat([...this.pending, data]);
        this.clearPending();
      } else {
        const total = 4 + this.pending[0].readUInt32LE(0);
        const missing = total - this.pendingBytes;
        if (data.length < missing) {
          this.keep(data);
          return;
        }
        const frame = Buffer.concat([...this.pending, data.subarray(0, missing)], total);
        this.clearPending();
        if (!this.deliver(frame, 4, total)) return;
        data = data.subarray(missing);
      }
    }
    let at = 0;
    while (data.length - at >= 4) {
      const length = data.readUInt32LE(at);
      if (length > MAX_FRAME_BYTES) {
        this.clearPending();
        return this.onBroken(`frame of ${length} bytes`);
      }
      if (data.length - at - 4 < length) break;
      if (!this.deliver(data, at + 4, at + 4 + length)) return;
      at += 4 + length;
    }
    if (at < data.length) this.keep(data.subarray(at));
  }

  private keep(part: Buffer): void {
    // the length is checked on the copy kept, never on bytes that could change after
    const owned = Buffer.from(part);
    if (this.pendingBytes === 0 && owned.length >= 4) {
      const length = owned.readUInt32LE(0);
      if (length > MAX_FRAME_BYTES) return this.onBroken(`frame of ${length} bytes`);
    }
    this.pending.push(owned);
    this.pendingBytes += owned.length;
  }

  private clearPending(): void {
    this.pending = [];
    this.pendingBytes = 0;
  }

  /** Parses bytes [start, end) of `buf` as one frame's JSON; false when the peer is broken. */
  private deliver(buf: Buffer, start: number, end: number): boolean {
    let message: unknown;
    try {
      message = JSON.parse(buf.toString('utf8', start, end));
    } catch {
      this.clearPending();
      this.onBroken('a frame that is not JSON');
      return false;
    }
    try {
      this.onFrame(message);
    } catch (error) {
      // a frame of a shape its handler cannot take: the peer is broken, this process is not
      this.clearPending();
      this.onBroken(`a frame of the wrong shape (${error instanceof Error ? error.message : String(error)})`);
      return false;
    }
    return true;
  }
}
