// One direction of the shared-memory lane (shm-lane.ts): a byte ring in memory that two
// processes map, one writing and one reading, with no system call on either side. Frames
// (frame.ts) go in as bytes; a frame may wrap around the end or be split across writes,
// and the reader's FrameReader joins it.
//
// Layout: a header of five 32-bit words, each on its own cache line, then `capacity` data
// bytes (a power of two). `head` and `tail` count bytes ever written and read (mod 2^32).
//   head     written by the writer after copying bytes in
//   tail     written by the reader after it has taken bytes out
//   awake    the reader is polling: the writer need not ring its doorbell
//   bell     the writer rang the doorbell (a byte on the pipe) and the reader has not
//            looked since: one ring per wake, not one per frame
//   waiting  the writer has bytes that did not fit: the reader rings back when it frees space
// Every store and load of a header word is an Atomics (sequentially consistent) operation,
// which is what makes "store my word, then load yours" safe on both sides: a writer that
// sees `awake` after storing `head` knows the reader will look at `head` again after
// clearing `awake`.
//
// The peer may be hostile (a worker whose guest escaped): each side keeps its own counter
// locally and checks the peer's against it, so a peer can garble only its own traffic, and
// a count that cannot be true is reported as broken. The reader copies bytes out of the
// ring before anything looks at them: a peer rewriting them meanwhile can change what the
// copy holds, never make two looks at "the same" bytes disagree (a length checked, then a
// different length used).
//
// This relies on V8 compiling Atomics on a plain (non-shared) ArrayBuffer, the mapping the
// native helper returns, to the same sequentially consistent instructions as on a
// SharedArrayBuffer (it does: one builtin for both); lib/sandbox/shm-lane.test.ts runs a
// round-trip stress between two processes that would hang on a lost wake-up.

const WORD = 16; // Int32 slots per cache line
const HEAD = 0;
const TAIL = WORD;
const AWAKE = 2 * WORD;
const BELL = 3 * WORD;
const WAITING = 4 * WORD;
export const RING_HEADER_BYTES = 5 * WORD * 4;

/** Bytes one ring of `capacity` data bytes takes in the mapping. */
export const ringBytes = (capacity: number): number => RING_HEADER_BYTES + capacity;

export class RingBroken extends Error {}

export class ShmRing {
  private readonly h: Int32Array;
  private readonly data: Buffer;
  private readonly mask: number;
  /** this side's own counter: head when writing, tail when reading */
  private mine = 0;
  /** the reader's copy of what it takes out (made on first read) */
  private scratch: Buffer | null = null;

  constructor(
    buffer: ArrayBuffer,
    byteOffset: number,
    private readonly capacity: number,
  ) {
    if (capacity < 64 || (capacity & (capacity - 1)) !== 0) throw new Error('ring capacity must be a power of two');
    this.h = new Int32Array(buffer, byteOffset, RING_HEADER_BYTES / 4);
    this.data = Buffer.from(buffer, byteOffset + RING_HEADER_BYTES, capacity);
    this.mask = capacity - 1;
  }

  // ---- writer side

  /** Copies what fits of `src[start..]` in; returns the bytes taken (0 when full). */
  write(src: Buffer, start = 0): number {
    const head = this.mine;
    const used = (head - Atomics.load(this.h, TAIL)) >>> 0;
    if (used > this.capacity) throw new RingBroken('a read count ahead of the bytes written');
    const n = Math.min(this.capacity - used, src.length - start);
    if (n === 0) return 0;
    const at = head & this.mask;
    const first = Math.min(n, this.capacity - at);
    src.copy(this.data, at, start, start + first);
    if (first < n) src.copy(this.data, 0, start + first, start + n);
    this.mine = (head + n) >>> 0;
    Atomics.store(this.h, HEAD, this.mine | 0);
    return n;
  }

  /** After a write: true when the reader is not polling and nobody has rung yet (ring now). */
  shouldRing(): boolean {
    return Atomics.load(this.h, AWAKE) === 0 && Atomics.compareExchange(this.h, BELL, 0, 1) === 0;
  }

  /** The writer has bytes left over (true) or none any more (false). */
  setWaiting(on: boolean): void {
    Atomics.store(this.h, WAITING, on ? 1 : 0);
  }

  // ---- reader side

  /** Marks the reader polling (true) or not; see `shouldRing`. */
  setAwake(on: boolean): void {
    Atomics.store(this.h, AWAKE, on ? 1 : 0);
  }

  /** The doorbell was heard: a later write must ring again. */
  clearBell(): void {
    Atomics.store(this.h, BELL, 0);
  }

  /** Bytes waiting to be read. */
  available(): number {
    const n = (Atomics.load(this.h, HEAD) - this.mine) >>> 0;
    if (n > this.capacity) throw new RingBroken('a write count past what the ring holds');
    return n;
  }

  /**
   * Copies every waiting byte out, frees them in the ring, then hands the copy to
   * `onBytes` (a view valid only during the call). Returns the bytes read.
   */
  read(onBytes: (chunk: Buffer) => void): number {
    const n = this.available();
    if (n === 0) return 0;
    const at = this.mine & this.mask;
    const first = Math.min(n, this.capacity - at);
    const copy = (this.scratch ??= Buffer.allocUnsafe(this.capacity));
    this.data.copy(copy, 0, at, at + first);
    if (first < n) this.data.copy(copy, first, 0, n - first);
    this.mine = (this.mine + n) >>> 0;
    Atomics.store(this.h, TAIL, this.mine | 0);
    onBytes(copy.subarray(0, n));
    return n;
  }

  /** After a read: true when the writer waits for space and nobody told it yet (ring now). */
  writerWaits(): boolean {
    return Atomics.load(this.h, WAITING) === 1 && Atomics.compareExchange(this.h, WAITING, 1, 0) === 1;
  }
}
