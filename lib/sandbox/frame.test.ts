// Frames on the pool <-> worker pipes (frame.ts): any split of the byte stream gives the
// same messages in order, also when each chunk is a view of a buffer its caller reuses
// (as the pipe polling does), and a broken peer is reported.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeFrame, FrameReader, MAX_FRAME_BYTES } from './frame';

/** Pushes `stream` in chunks cut at `cuts`, each copied into one reused scratch buffer. */
function readAll(stream: Buffer, cuts: number[]): { messages: unknown[]; broken: string[] } {
  const messages: unknown[] = [];
  const broken: string[] = [];
  const reader = new FrameReader(
    (m) => messages.push(m),
    (why) => broken.push(why),
  );
  const scratch = Buffer.alloc(stream.length + 1);
  const points = [...new Set([0, ...cuts.map((c) => c % (stream.length + 1)), stream.length])].sort((a, b) => a - b);
  for (let i = 1; i < points.length; i++) {
    const n = stream.copy(scratch, 0, points[i - 1], points[i]);
    reader.push(scratch.subarray(0, n));
    scratch.fill(0x7b); // the caller reuses its buffer: nothing kept may point into it
  }
  return { messages, broken };
}

describe('FrameReader', () => {
  it('gives every message in order, however the stream is cut', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue({ maxDepth: 3 }), { minLength: 1, maxLength: 8 }), fc.array(fc.nat(), { maxLength: 40 }), (values, cuts) => {
        const stream = Buffer.concat(values.map((v) => encodeFrame({ v })));
        const { messages, broken } = readAll(stream, cuts);
        expect(broken).toEqual([]);
        expect(messages).toEqual(values.map((v) => JSON.parse(JSON.stringify({ v }))));
      }),
      { numRuns: 300 },
    );
  });

  it('joins a frame of megabytes once, from many chunks, and goes on with the next', () => {
    const big = { t: 'res', v: 'é'.repeat(3_000_000) };
    const stream = Buffer.concat([encodeFrame(big), encodeFrame({ t: 'ready' })]);
    const cuts = Array.from({ length: Math.ceil(stream.length / 65_536) }, (_, i) => i * 65_536 + 1);
    const { messages, broken } = readAll(stream, cuts);
    expect(broken).toEqual([]);
    expect(messages).toEqual([big, { t: 'ready' }]);
  });

  it('reports a length over the limit and a frame that is not JSON', () => {
    const huge = Buffer.alloc(4);
    huge.writeUInt32LE(MAX_FRAME_BYTES + 1, 0);
    expect(readAll(huge, [2]).broken).toEqual([`frame of ${MAX_FRAME_BYTES + 1} bytes`]);
    const bad = Buffer.concat([Buffer.from([3, 0, 0, 0]), Buffer.from('{x}')]);
    expect(readAll(bad, [1, 5]).broken).toEqual(['a frame that is not JSON']);
  });

  it('reports a frame its handler cannot take instead of throwing, and an empty frame as broken', () => {
    const broken: string[] = [];
    const reader = new FrameReader(
      (m) => {
        if ((m as { t?: unknown } | null)?.t !== 'ok') throw new TypeError('not a message');
      },
      (why) => broken.push(why),
    );
    reader.push(encodeFrame({ t: 'ok' }));
    reader.push(encodeFrame(null));
    expect(broken).toEqual(['a frame of the wrong shape (not a message)']);
    new FrameReader(
      () => {},
      (why) => broken.push(why),
    ).push(Buffer.alloc(4));
    expect(broken.at(-1)).toBe('a frame that is not JSON');
  });
});
