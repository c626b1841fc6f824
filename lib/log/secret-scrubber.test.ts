import { describe, expect, it } from 'vitest';
import { createSecretScrubber } from './secret-scrubber';

const TOKEN = 'gho_16C7e42F292c6912E7710c838347Ae178B4a';

describe('createSecretScrubber', () => {
  it('redacts a known secret in strings, keys and nested values, and leaves the rest', () => {
    const s = createSecretScrubber([TOKEN]);
    const out = s.scrub({ header: `Bearer ${TOKEN}`, list: [1, TOKEN, { [TOKEN]: true }], ok: 'nothing here', n: 3, none: null });
    expect(JSON.stringify(out)).not.toContain(TOKEN);
    expect(out).toEqual({ header: 'Bearer [redacted]', list: [1, '[redacted]', { '[redacted]': true }], ok: 'nothing here', n: 3, none: null });
  });

  it('redacts the percent-encoded, JSON-escaped and base64 forms', () => {
    const secret = 'p@ss/word "quoted" +more';
    const s = createSecretScrubber([secret]);
    const b64 = Buffer.from(secret).toString('base64');
    const text = `q=${encodeURIComponent(secret)} json=${JSON.stringify({ v: secret })} basic=${b64} url=${Buffer.from(secret).toString('base64url')}`;
    const out = s.scrubText(text);
    expect(out).not.toContain(encodeURIComponent(secret));
    expect(out).not.toContain(JSON.stringify(secret).slice(1, -1));
    expect(out).not.toContain(b64.replace(/=+$/, ''));
    expect(out.match(/\[redacted\]/g)).toHaveLength(4);
  });

  it('learns secrets later (an environment secret read during the run) and ignores short ones', () => {
    const s = createSecretScrubber();
    expect(s.scrub({ a: TOKEN })).toEqual({ a: TOKEN });
    s.add(TOKEN);
    s.add('abc');
    s.add(null);
    expect(s.size).toBe(1);
    expect(s.scrubText(`x${TOKEN}y abc`)).toBe('x[redacted]y abc');
  });

  it('replaces the longer of two overlapping secrets whole', () => {
    const s = createSecretScrubber(['secret-one', 'secret-one-and-more']);
    expect(s.scrubText('secret-one-and-more')).toBe('[redacted]');
  });

  it('scrubs what a call returns, and what it throws (message and details) before rethrowing the same error', async () => {
    const s = createSecretScrubber(['tok-123456']);
    expect(await s.scrubbed(Promise.resolve({ echo: 'tok-123456' }))).toEqual({ echo: '[redacted]' });
    const thrown = Object.assign(new Error('upstream said tok-123456'), { code: 'tool/failed', details: { header: 'Bearer tok-123456' } });
    const caught = await s.scrubbed(Promise.reject(thrown)).catch((e: unknown) => e);
    expect(caught).toBe(thrown);
    expect(caught).toMatchObject({ code: 'tool/failed', message: 'upstream said [redacted]', details: { header: 'Bearer [redacted]' } });
    await expect(s.scrubbed(Promise.reject('tok-123456'))).rejects.toBe('tok-123456'); // not an Error: as thrown
  });
});
