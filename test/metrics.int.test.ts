// /metrics (issue 28): off without its token setting, refused without the token, and it
// counts what the API answered, by a bounded route label.
import { beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl } from './db';

const TOKEN = 'metrics-token-for-tests-0123456789';
process.env.SKILLYARD_SECRET_KEY ??= 'f'.repeat(64);
process.env.SKILLYARD_METRICS_TOKEN = TOKEN;

type Route = { GET: (req: Request, ctx: { params: Promise<Record<string, never>> }) => Promise<Response> };
let metrics: Route;
let health: Route;
let searchRoute: Route;
const none = { params: Promise.resolve({}) };

beforeAll(async () => {
  process.env.DATABASE_URL = testDatabaseUrl();
  metrics = await import('../app/metrics/route');
  health = await import('../app/api/health/route');
  searchRoute = await import('../app/api/v1/skills/route');
});

const scrape = (auth?: string) => metrics.GET(new Request('http://127.0.0.1/metrics', { headers: auth ? { authorization: auth } : {} }), none);

function sample(text: string, name: string, labels: Record<string, string>): number {
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(name + '{')) continue;
    const inside = line.slice(name.length + 1, line.indexOf('}'));
    if (want.every((w) => inside.split(',').includes(w))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return 0;
}

describe('/metrics', () => {
  it('refuses a scrape without the token or with another one, and says nothing else', async () => {
    for (const auth of [undefined, 'Bearer wrong-token-wrong-token', `Basic ${TOKEN}`, `Bearer ${TOKEN}x`]) {
      const res = await scrape(auth);
      expect(res.status).toBe(401);
      const text = await res.text();
      expect(text).not.toContain('skillyard_');
    }
  });

  it('counts an API request by its route label and status, and reports runs by state', async () => {
    const before = sample(await (await scrape(`Bearer ${TOKEN}`)).text(), 'skillyard_http_requests_total', { method: 'GET', route: '/api/v1/skills', status: '200' });
    const res = await searchRoute.GET(new Request('http://127.0.0.1/api/v1/skills?q=text', { headers: { 'x-forwarded-for': '203.0.113.9' } }), none);
    expect(res.status).toBe(200);
    await health.GET(new Request('http://127.0.0.1/api/health'), none);
    const scraped = await scrape(`Bearer ${TOKEN}`);
    expect(scraped.status).toBe(200);
    expect(scraped.headers.get('content-type')).toContain('text/plain');
    const text = await scraped.text();
    expect(sample(text, 'skillyard_http_requests_total', { method: 'GET', route: '/api/v1/skills', status: '200' })).toBe(before + 1);
    expect(sample(text, 'skillyard_http_request_duration_seconds_count', { method: 'GET', route: '/api/health' })).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(/^skillyard_runs\{state="queued"\} \d+$/m);
    expect(text).toMatch(/^skillyard_sse_clients \d+$/m);
    expect(text).toMatch(/^skillyard_process_resident_memory_bytes \d+/m);
  });
});
