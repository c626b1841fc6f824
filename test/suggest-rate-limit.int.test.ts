// GET /api/v1/search/suggest is called per (debounced) keystroke, so it has a budget of its
// own besides the API's: past SKILLYARD_RATE_LIMIT_SUGGEST in a window one address gets 429
// (rate/limited) while another address is still answered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl } from './db';
import { resetRateLimitMemoryForTests } from '../lib/limits';

process.env.SKILLYARD_SECRET_KEY ??= 'f'.repeat(64);
process.env.SKILLYARD_RATE_LIMIT_SUGGEST = '3';
process.env.SKILLYARD_RATE_LIMIT_ANONYMOUS = '1000';

type Route = (req: Request, ctx: { params: Promise<Record<string, never>> }) => Promise<Response>;
let route: { GET: Route };
const params = { params: Promise.resolve({}) };
const get = (ip: string, q = 'text') => route.GET(new Request(`http://127.0.0.1/api/v1/search/suggest?q=${q}`, { headers: { 'x-forwarded-for': ip } }), params);

beforeAll(async () => {
  process.env.DATABASE_URL = testDatabaseUrl();
  route = await import('../app/api/v1/search/suggest/route');
});
afterAll(() => resetRateLimitMemoryForTests());

describe('GET /api/v1/search/suggest', () => {
  it('answers suggestions, then refuses one address past its own budget', async () => {
    const ip = `10.77.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
    for (let i = 0; i < 3; i++) {
      const res = await get(ip);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ suggestions: expect.any(Array), corrections: expect.any(Object) });
    }
    const refused = await get(ip);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ error: { code: 'rate/limited' } });
    expect((await get(`10.78.${Math.floor(Math.random() * 250)}.1`)).status).toBe(200);
  });

  it('refuses a query over 200 characters with a clear error', async () => {
    const res = await get(`10.79.${Math.floor(Math.random() * 250)}.2`, 'a'.repeat(201));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 'input/invalid' } });
  });
});
