// The HTTP invoke route against /api/health on one production server (`node
// scripts/start.mjs` on a throwaway database): p50 with one client and requests per second
// with 16 clients, for POST /api/v1/tools/count-words/invoke anonymous and with an API
// token. Prints JSON with the targets of issue 16 (p50 within health + 1 ms; rps at least
// 60% of health's). Run: npm run bench:http   (BENCH_PORT, BENCH_PG_PORT, BENCH_SECONDS)
import { createDb } from '../lib/db/client';
import { startBenchApp } from './bench-app';
import { createApiToken } from '../lib/auth/api-tokens';

const appPort = process.env.BENCH_PORT ?? process.env.PORT ?? '3212';
const pgPort = Number(process.env.BENCH_PG_PORT ?? 54339);
const seconds = Number(process.env.BENCH_SECONDS ?? 4);
const sequential = Number(process.env.BENCH_CALLS ?? 300);
const base = `http://127.0.0.1:${appPort}`;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return Number(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))].toFixed(2));
};

type Call = () => Promise<void>;

/**
 * p50/p95 of each call with one client, the calls interleaved (one of each per round, in a
 * rotating order): the machine's load drifts by the second, and every subject sees the same.
 */
async function p50s(calls: Call[]): Promise<{ p50: number; p95: number }[]> {
  for (let i = 0; i < 30; i++) for (const call of calls) await call();
  const ms: number[][] = calls.map(() => []);
  for (let i = 0; i < sequential; i++) {
    for (let j = 0; j < calls.length; j++) {
      const k = (i + j) % calls.length;
      const t = performance.now();
      await calls[k]();
      ms[k].push(performance.now() - t);
    }
  }
  return ms.map((xs) => ({ p50: pct(xs, 50), p95: pct(xs, 95) }));
}

async function rps(call: Call, clients = 16): Promise<{ rps: number; errors: number }> {
  let done = 0;
  let errors = 0;
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < until) {
        try {
          await call();
          done++;
        } catch {
          errors++;
        }
      }
    }),
  );
  return { rps: Math.round(done / seconds), errors };
}

const { url, stop } = await startBenchApp({
  name: 'http',
  pgPort,
  appPort,
  env: {
    // measures speed, not the rate limiter (bench/abuse measures that): limits out of the way
    SKILLYARD_RATE_LIMIT_ANONYMOUS: '100000000',
    SKILLYARD_RATE_LIMIT_AUTHENTICATED: '100000000',
    SKILLYARD_LOG_LEVEL: 'warn',
  },
  startTimeoutMs: 600_000,
});

try {
  const db = createDb(url);
  const user = await db.user.create({ data: { name: 'bench' } });
  const { token } = await createApiToken(db, { userId: user.id, name: 'bench', scopes: ['invoke'] });
  await db.$disconnect();

  const body = JSON.stringify({ args: { text: 'One two three. Four five!' }, skill: '@skillyard/text-stats' });
  const expectOk = async (res: Response) => {
    if (res.status !== 200) throw new Error(`${res.url} answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
    await res.arrayBuffer();
  };
  const health: Call = async () => expectOk(await fetch(`${base}/api/health`));
  const invoke =
    (headers: Record<string, string>): Call =>
    async () =>
      expectOk(await fetch(`${base}/api/v1/tools/count-words/invoke`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body }));
  // an anonymous client that keeps its visitor cookie, as a browser does
  const first = await fetch(`${base}/api/v1/tools/count-words/invoke`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  const cookie = (first.headers.get('set-cookie') ?? '').split(';')[0];
  await first.arrayBuffer();
  const anonymous = invoke(cookie ? { cookie } : {});
  const anonymousWithoutCookie = invoke({});
  const signedIn = invoke({ authorization: `Bearer ${token}` });

  const [h1, a1, s1, n1] = await p50s([health, anonymous, signedIn, anonymousWithoutCookie]);
  const h16 = await rps(health);
  const a16 = await rps(anonymous);
  const s16 = await rps(signedIn);
  const sandbox = ((await (await fetch(`${base}/api/health`)).json()) as { sandbox: { lane: string; workers: number } | null }).sandbox;
  const verdict = (one: { p50: number }, many: { rps: number }) => ({
    p50AddedMs: Number((one.p50 - h1.p50).toFixed(2)),
    rpsShareOfHealth: Number((many.rps / h16.rps).toFixed(2)),
    p50WithinHealthPlus1ms: one.p50 <= h1.p50 + 1,
    rpsAtLeast60PercentOfHealth: many.rps >= 0.6 * h16.rps,
  });
  console.log(
    JSON.stringify(
      {
        benchmark: 'http',
        node: process.version,
        sequentialCalls: sequential,
        secondsPerLoad: seconds,
        sandbox: sandbox && { lane: sandbox.lane, workers: sandbox.workers },
        health: { oneClient: h1, sixteenClients: h16 },
        invokeAnonymous: { visitorCookie: Boolean(cookie), oneClient: a1, sixteenClients: a16, ...verdict(a1, a16) },
        // without a cookie every call is a new anonymous caller: a cold isolate each time, by design
        invokeAnonymousWithoutCookie: { oneClient: n1 },
        invokeWithApiToken: { oneClient: s1, sixteenClients: s16, ...verdict(s1, s16) },
      },
      null,
      2,
    ),
  );
} finally {
  await stop();
}
