import { describe, expect, it } from 'vitest';
import { backoffDelay, parseRetryAfter, redact, safeUrl } from './http';
import { readSse } from './sse';

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  it('reads delta-seconds', () => {
    expect(parseRetryAfter('12', now)).toBe(12_000);
    expect(parseRetryAfter('0', now)).toBe(0);
    expect(parseRetryAfter('1.5', now)).toBe(1500);
  });
  it('reads an HTTP date', () => {
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5_000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
  });
  it('ignores missing or garbage values', () => {
    expect(parseRetryAfter(null, now)).toBeNull();
    expect(parseRetryAfter('soon', now)).toBeNull();
  });
});

describe('backoff, redaction, urls', () => {
  it('doubles from the base and stays under the cap', () => {
    const r = { maxAttempts: 10, baseMs: 500, capMs: 30_000 };
    expect(backoffDelay(1, r, () => 0.5)).toBe(500);
    expect(backoffDelay(3, r, () => 0.5)).toBe(2000);
    expect(backoffDelay(20, r, () => 1)).toBe(30_000);
  });
  it('redacts secrets and strips credentials from urls', () => {
    expect(redact('key sk-123456 and sk-123456', ['sk-123456'])).toBe('key [redacted] and [redacted]');
    expect(safeUrl('http://user:pw@host:8080/v1/chat?key=abc')).toBe('http://host:8080/v1/chat');
  });
});

describe('readSse', () => {
  it('handles CRLF, multi-line data, comments and events split across chunks', async () => {
    const enc = new TextEncoder();
    const parts = [': comment\r\nevent: a\r\ndata: one\r', '\ndata: two\r\n\r\ndata: {"x"', ':1}\n\n', 'data: tail'];
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        for (const p of parts) c.enqueue(enc.encode(p));
        c.close();
      },
    });
    const out = [];
    for await (const m of readSse(body, new AbortController().signal)) out.push(m);
    expect(out).toEqual([
      { event: 'a', data: 'one\ntwo' },
      { event: 'message', data: '{"x":1}' },
      { event: 'message', data: 'tail' },
    ]);
  });
});
