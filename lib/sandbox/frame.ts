// Pool <-> worker frames on a dedicated pipe (fd 3 in the worker): a 4-byte little-endian
// length, then the message as UTF-8 JSON. One write and one parse per message, no Node
// IPC layer; guest payloads inside (args, results) stay JSON text, parsed once at the end.
export const MAX_FRAME_BYTES = 256 * 2 ** 20;

export function encodeFrame(message: unknown): Buffer {
  const json = JSON.stringify(message);
  const length = Buffer.byteLength(json);
  const frame = Buffer.allocUnsafe(4 + length);
  frame.writeUInt32LE(length, 0);
  frame.write(json, 4, 'utf8');
  return frame;
}

/** Splits a byte stream into frames; a frame larger than MAX_FRAME_BYTES is a broken peer. */
export class FrameReader {
  private buffer: Buffer = Buffer.alloc(0);

  constructor(
    private readonly onFrame: (message: unknown) => void,
    private readonly onBroken: (why: string) => void,
  ) {}

  push(chunk: Buffer): void {
    let buf = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    let at = 0;
    while (buf.length - at >= 4) {
      const length = buf.readUInt32LE(at);
      if (length > MAX_FRAME_BYTES) {
        this.buffer = Buffer.alloc(0);
        return this.onBroken(`frame of ${length} bytes`);
      }
      if (buf.length - at - 4 < length) break;
      const text = buf.toString('utf8', at + 4, at + 4 + length);
      at += 4 + length;
      let message: unknown;
      try {
        message = JSON.parse(text);
      } catch {
        this.buffer = Buffer.alloc(0);
        return this.onBroken('a frame that is not JSON');
      }
      this.onFrame(message);
    }
    buf = at === 0 ? buf : buf.subarray(at);
    this.buffer = buf.length === 0 ? Buffer.alloc(0) : Buffer.from(buf);
  }
}
