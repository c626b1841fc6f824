// Sandbox back-pressure reaches HTTP as 503 with Retry-After (issue 16; a small test beside
// http's route wrapper, written by the sandbox engineer).
import { describe, expect, it } from 'vitest';
import { RuntimeError } from '../runtime';
import { errorResponse } from './with-api';

describe('sandbox/queue-full over HTTP', () => {
  it('answers 503 with Retry-After rounded up to whole seconds', async () => {
    const res = errorResponse(new RuntimeError('sandbox/queue-full', 'the sandbox is overloaded', { retryAfterMs: 1_500 }), 'req-1', 'test');
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('2');
    expect(await res.json()).toEqual({ error: { code: 'sandbox/queue-full', message: 'the sandbox is overloaded' } });
  });
  it('other runtime errors carry no Retry-After', () => {
    const res = errorResponse(new RuntimeError('sandbox/timeout', 'too slow'), 'req-2', 'test');
    expect(res.status).toBe(504);
    expect(res.headers.get('retry-after')).toBeNull();
  });
});
