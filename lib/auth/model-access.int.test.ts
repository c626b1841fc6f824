// Who may spend model keys: anonymous visitors only within the quota, signed-in users the
// server's keys, and a user's own key only for that user.
import { afterEach, describe, expect, it } from 'vitest';
import { testDb } from '../../test/db';
import { createRun } from '../runs/create-run';
import { setModelKey } from './model-keys';
import { providersFor } from './model-access';

const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
});

const config = (provider: string) => ({ skills: ['@skillyard/slugify'], provider, task: 'hello', visibility: 'unlisted' });

describe('model access', () => {
  it('anonymous visitors get scripted and manual, and the server model only within the daily quota', async () => {
    const db = testDb();
    process.env.OPENAI_BASE_URL = 'http://127.0.0.1:9/v1';
    delete process.env.SKILLYARD_ANONYMOUS_MODEL_RUNS_PER_DAY;
    await expect(createRun(db, { config: { ...config('scripted'), script: ['return 1;'] }, userId: null })).resolves.toMatchObject({ id: expect.any(String) });
    await expect(createRun(db, { config: config('openai'), userId: null })).rejects.toMatchObject({ code: 'auth/sign-in-required', status: 403 });
    expect(await providersFor(db, null, ['scripted', 'manual', 'openai'])).toEqual(['scripted', 'manual']);

    // a quota counts anonymous model runs (any provider but scripted and manual) of the last
    // day, across visitors; other tests in this database start anonymous runs of other providers
    const before = Number(
      (
        await db.$queryRaw<
          Array<{ n: bigint }>
        >`SELECT count(*)::bigint AS n FROM "Run" WHERE "userId" IS NULL AND coalesce("config"->>'provider', '') NOT IN ('scripted', 'manual')`
      )[0].n,
    );
    process.env.SKILLYARD_ANONYMOUS_MODEL_RUNS_PER_DAY = String(before + 1);
    await expect(createRun(db, { config: config('openai'), userId: null, principal: 'anon:a' })).resolves.toBeTruthy();
    await expect(createRun(db, { config: config('openai'), userId: null, principal: 'anon:b' })).rejects.toMatchObject({ code: 'auth/sign-in-required' });
  });

  it('signed-in users use the server key, or their own key when the server has none', async () => {
    const db = testDb();
    delete process.env.OPENAI_BASE_URL;
    delete process.env.OPENAI_API_KEY;
    const user = await db.user.create({ data: {} });
    await expect(createRun(db, { config: config('openai'), userId: user.id })).rejects.toMatchObject({ code: 'input/provider-unavailable' });
    await setModelKey(db, user.id, 'openai', 'sk-own-key-0123456789');
    await expect(createRun(db, { config: config('openai'), userId: user.id })).resolves.toBeTruthy();
    expect(await providersFor(db, user.id, ['scripted', 'manual'])).toEqual(['scripted', 'manual', 'openai']);
    // another user's key unlocks nothing for anybody else
    const other = await db.user.create({ data: {} });
    await expect(createRun(db, { config: config('openai'), userId: other.id })).rejects.toMatchObject({ code: 'input/provider-unavailable' });
    await expect(createRun(db, { config: config('openai'), userId: null })).rejects.toMatchObject({ code: 'input/provider-unavailable' });
  });
});
