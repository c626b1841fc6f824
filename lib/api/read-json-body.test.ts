import { describe, expect, it } from 'vitest';
import { jsonHasNul, readBodyText, readJsonBody } from './read-json-body';

const limits = { maxBytes: 1024, maxDepth: 64 };

/** A body stream of `chunks` chunks of `size` bytes that counts how many were pulled. */
function countingBody(chunks: number, size: number) {
  const state = { pulled: 0 };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (state.pulled >= chunks) return controller.close();
        state.pulled++;
        controller.enqueue(new Uint8Array(size).fill(32));
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, state };
}

const post = (body: BodyInit | null, headers: Record<string, string> = {}) => new Request('http://x/', { method: 'POST', body, headers, duplex: 'half' } as RequestInit);

describe('readBodyText', () => {
  it('refuses from Content-Length before reading a byte', async () => {
    const { stream, state } = countingBody(10, 100);
    await expect(readBodyText(post(stream, { 'content-length': '5000000' }), 1024)).rejects.toMatchObject({ code: 'input/too-large' });
    expect(state.pulled).toBe(0);
  });

  it('stops reading a body without Content-Length at the limit', async () => {
    const { stream, state } = countingBody(100_000, 1000); // 100 MB if read whole
    await expect(readBodyText(post(stream), 4096)).rejects.toMatchObject({ code: 'input/too-large' });
    expect(state.pulled).toBeLessThan(10);
  });

  it('reads a body within the limit', async () => {
    expect(await readBodyText(post('{"a":1}'), 1024)).toBe('{"a":1}');
  });
});

describe('readJsonBody', () => {
  it('refuses JSON nested deeper than the limit before parsing', async () => {
    const deep = '['.repeat(5000) + ']'.repeat(5000);
    await expect(readJsonBody(post(deep), { maxBytes: 1e6, maxDepth: 64 })).rejects.toMatchObject({ code: 'input/too-deep' });
    const ok = '['.repeat(64) + ']'.repeat(64);
    expect(await readJsonBody(post(ok), { maxBytes: 1e6, maxDepth: 64 })).toBeDefined();
    const over = '{"a":'.repeat(65) + '1' + '}'.repeat(65);
    await expect(readJsonBody(post(over), { maxBytes: 1e6, maxDepth: 64 })).rejects.toMatchObject({ code: 'input/too-deep' });
  });

  it('refuses NUL in strings and keys, and malformed JSON', async () => {
    await expect(readJsonBody(post('{"task":"a\\u0000b"}'), limits)).rejects.toMatchObject({ code: 'input/nul-byte' });
    await expect(readJsonBody(post('{"a\\u0000":1}'), limits)).rejects.toMatchObject({ code: 'input/nul-byte' });
    await expect(readJsonBody(post('{nope'), limits)).rejects.toMatchObject({ code: 'input/invalid-json' });
    expect(await readJsonBody(post('{"task":"a\\u0000b"}'), { ...limits, allowNul: true })).toEqual({ task: 'a\u0000b' });
    expect(jsonHasNul({ a: [{ b: ['x', 'y\u0000'] }] })).toBe(true);
    expect(jsonHasNul({ a: [{ b: ['x', 'y'] }] })).toBe(false);
  });

  it('reads an empty body as {}', async () => {
    expect(await readJsonBody(post(null), limits)).toEqual({});
  });
});
