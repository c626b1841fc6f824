// The shared-memory ring (shm-ring.ts) in one process: both ends over one buffer, as the
// pool and a worker see it through their mappings.
import { describe, expect, it } from 'vitest';
import { RING_HEADER_BYTES, RingBroken, ringBytes, ShmRing } from './shm-ring';

const CAP = 64;
function pair(capacity = CAP) {
  const memory = new ArrayBuffer(ringBytes(capacity));
  return { memory, writer: new ShmRing(memory, 0, capacity), reader: new ShmRing(memory, 0, capacity) };
}
const take = (ring: ShmRing): string => {
  let text = '';
  ring.read((chunk) => (text += chunk.toString('latin1')));
  return text;
};
/** the ring's shared header words, as a peer could write them */
const header = (memory: ArrayBuffer) => new Int32Array(memory, 0, RING_HEADER_BYTES / 4);
const HEAD = 0;
const TAIL = 16;

describe('ShmRing', () => {
  it('carries bytes in order, across the end of the ring, and counts past 2^32', () => {
    const { memory, writer, reader } = pair();
    // start both counters just below 2^32 (as after 4 GB of traffic)
    const start = 2 ** 32 - 10;
    (writer as unknown as { mine: number }).mine = start;
    (reader as unknown as { mine: number }).mine = start;
    header(memory)[HEAD] = start | 0;
    header(memory)[TAIL] = start | 0;
    let sent = '';
    let got = '';
    for (let i = 0; i < 200; i++) {
      const text = `frame-${i};`.repeat((i % 5) + 1);
      let at = 0;
      while (at < text.length) {
        at += writer.write(Buffer.from(text, 'latin1'), at);
        got += take(reader); // the reader frees room as it goes
      }
      sent += text;
    }
    got += take(reader);
    expect(got).toBe(sent);
    expect(reader.available()).toBe(0);
  });

  it('takes only what fits, and the rest after the reader made room', () => {
    const { writer, reader } = pair();
    const big = Buffer.alloc(100, 'x');
    expect(writer.write(big)).toBe(CAP);
    expect(writer.write(big, CAP)).toBe(0);
    expect(take(reader)).toHaveLength(CAP);
    expect(writer.write(big, CAP)).toBe(36);
    expect(take(reader)).toHaveLength(36);
  });

  it('rings once per wake: not while the reader polls, not twice before it looked', () => {
    const { writer, reader } = pair();
    reader.setAwake(true);
    writer.write(Buffer.from('a'));
    expect(writer.shouldRing()).toBe(false);
    reader.setAwake(false);
    writer.write(Buffer.from('b'));
    expect(writer.shouldRing()).toBe(true);
    writer.write(Buffer.from('c'));
    expect(writer.shouldRing()).toBe(false); // already rung, not heard yet
    reader.clearBell();
    expect(take(reader)).toBe('abc');
    writer.write(Buffer.from('d'));
    expect(writer.shouldRing()).toBe(true);
  });

  it('tells a waiting writer once that there is room', () => {
    const { writer, reader } = pair();
    writer.write(Buffer.alloc(CAP));
    writer.setWaiting(true);
    take(reader);
    expect(reader.writerWaits()).toBe(true);
    expect(reader.writerWaits()).toBe(false);
  });

  it('reports counts a hostile peer wrote that cannot be true, and keeps its own', () => {
    const { memory, writer, reader } = pair();
    header(memory)[HEAD] = 1_000; // more than the ring holds
    expect(() => reader.available()).toThrow(RingBroken);
    expect(() => take(reader)).toThrow(RingBroken);
    header(memory)[HEAD] = 0;
    header(memory)[TAIL] = 5; // "read" bytes never written
    expect(() => writer.write(Buffer.from('x'))).toThrow(RingBroken);
    // a peer that moves the writer's head back only garbles what it reads itself
    header(memory)[TAIL] = 0;
    writer.write(Buffer.from('abc'));
    header(memory)[HEAD] = 1;
    writer.write(Buffer.from('d'));
    expect(header(memory)[HEAD]).toBe(4);
  });

  it('refuses a capacity that is not a power of two', () => {
    expect(() => new ShmRing(new ArrayBuffer(ringBytes(100)), 0, 100)).toThrow(/power of two/);
  });
});
