import { afterEach, describe, expect, it } from 'vitest';
import { clearFailures, createLogger, newRequestId, recentFailures, reportFailure, reportRecovery, withRequestId, REDACTED } from './index';

function capture() {
  const lines: Array<{ level: string; record: Record<string, unknown> }> = [];
  const logger = createLogger({ component: 'test' }, { level: 'debug', sink: (level, line) => lines.push({ level, record: JSON.parse(line) }) });
  return { logger, lines };
}

describe('createLogger', () => {
  it('writes one JSON object per line with level, message, base and call fields', () => {
    const { logger, lines } = capture();
    logger.child({ run: 'r1' }).info('run started', { attempt: 2 });
    expect(lines).toHaveLength(1);
    expect(lines[0].record).toMatchObject({ level: 'info', msg: 'run started', component: 'test', run: 'r1', attempt: 2 });
    expect(Date.parse(lines[0].record.time as string)).not.toBeNaN();
  });

  it('drops lines below its level', () => {
    const lines: string[] = [];
    const logger = createLogger({}, { level: 'warn', sink: (_l, line) => lines.push(line) });
    logger.info('quiet');
    logger.debug('quieter');
    logger.warn('loud');
    expect(lines.map((l) => JSON.parse(l).msg)).toEqual(['loud']);
  });

  it('names the request id of the surrounding request, and none outside one', async () => {
    const { logger, lines } = capture();
    const id = newRequestId();
    await withRequestId(id, async () => {
      await new Promise((r) => setTimeout(r, 1));
      logger.info('inside');
    });
    logger.info('outside');
    expect(lines[0].record.requestId).toBe(id);
    expect(lines[1].record).not.toHaveProperty('requestId');
  });

  it('keeps a sane incoming request id and replaces an unsafe one', () => {
    expect(newRequestId('abc-123_XYZ')).toBe('abc-123_XYZ');
    const replaced = newRequestId('bad id\n{"level":"error"}');
    expect(replaced).toMatch(/^[A-Za-z0-9_-]{12}$/);
  });

  it('never writes secrets: secret-named fields, URL credentials, bearer and API tokens', () => {
    const { logger, lines } = capture();
    const apiToken = `sy_0123abcd_${'x'.repeat(32)}`;
    logger.error('db down', {
      password: 'hunter2',
      headers: { authorization: 'Bearer abcdefghijklmnop', accept: 'json' },
      apiKey: 'sk-live-123',
      url: 'postgresql://skillyard:s3cret@127.0.0.1:5432/db',
      err: new Error(`login failed for ${apiToken} at postgres://u:pw@host/db`),
      tokenCount: 3,
    });
    const text = JSON.stringify(lines[0].record);
    for (const secret of ['hunter2', 'abcdefghijklmnop', 'sk-live-123', 's3cret', apiToken, ':pw@']) expect(text).not.toContain(secret);
    expect(lines[0].record).toMatchObject({ password: REDACTED, headers: { authorization: REDACTED, accept: 'json' }, tokenCount: 3 });
    expect(lines[0].record.url).toBe(`postgresql://${REDACTED}@127.0.0.1:5432/db`);
    expect((lines[0].record.err as { message: string }).message).toContain('login failed');
  });

  it('survives values JSON cannot hold (bigint, cycles beyond depth)', () => {
    const { logger, lines } = capture();
    const cyclic: Record<string, unknown> = { n: 1n };
    cyclic.self = cyclic;
    logger.info('odd', { cyclic });
    expect(lines).toHaveLength(1);
    expect((lines[0].record.cyclic as { n: string }).n).toBe('1');
  });
});

describe('failure registry', () => {
  afterEach(clearFailures);
  it('counts failures per component until it recovers, within a time window', () => {
    const before = Date.now();
    reportFailure('test.heartbeat', new Error('connection refused'));
    reportFailure('test.heartbeat', new Error('still refused'));
    expect(recentFailures()).toEqual([{ component: 'test.heartbeat', count: 2, lastAt: expect.any(String), lastMessage: 'still refused' }]);
    expect(recentFailures(60_000, before + 120_000)).toEqual([]);
    reportRecovery('test.heartbeat');
    expect(recentFailures()).toEqual([]);
  });
});
