// The overhead of an MCP tools/call round trip over the invoke API for the same tool and the
// same caller, on one production server (`node scripts/start.mjs` on a throwaway database;
// it builds first when the build is missing or stale). Sequential calls of count-words
// through POST /api/v1/tools/count-words/invoke and through an MCP session on
// /api/mcp/skillyard/text-stats (the SDK's own client), alternating call for call, for two
// callers:
//   - one API token on both sides (the comparison that counts: same principal, same warm
//     isolate, same token lookup per request);
//   - anonymous: the invoke client keeps its visitor cookie (as a browser does), the MCP
//     session is anonymous (its caller identity lives as long as the session).
// An anonymous invoke without a cookie is a new caller per call (a cold isolate each time,
// by design; bench/http measures it), so it is not compared here.
// Prints JSON: p50/p95 of each, the added p50 (target: under 1 ms) and the load average.
// Run: npm run bench:mcp   (BENCH_PORT or PORT, BENCH_PG_PORT, BENCH_CALLS)
import fs from 'node:fs';
import os from 'node:os';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createApiToken } from '../lib/auth/api-tokens';
import { createDb } from '../lib/db/client';
import { startBenchApp } from './bench-app';

const appPort = process.env.BENCH_PORT ?? process.env.PORT ?? '3211';
const pgPort = Number(process.env.BENCH_PG_PORT ?? 54338);
const calls = Number(process.env.BENCH_CALLS ?? 400);
const base = `http://127.0.0.1:${appPort}`;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return Number(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))].toFixed(3));
};
const loadAverage = () => fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).map(Number);

type Call = () => Promise<void>;

/** Alternates the two paths call for call (after a warm-up), so drift hits both alike. */
async function compare(invoke: Call, mcpCall: Call) {
  for (let i = 0; i < 30; i++) {
    await invoke();
    await mcpCall();
  }
  const inv: number[] = [];
  const mcp: number[] = [];
  for (let i = 0; i < calls; i++) {
    let t = performance.now();
    await invoke();
    inv.push(performance.now() - t);
    t = performance.now();
    await mcpCall();
    mcp.push(performance.now() - t);
  }
  return {
    invokeApiMs: { p50: pct(inv, 50), p95: pct(inv, 95) },
    mcpToolsCallMs: { p50: pct(mcp, 50), p95: pct(mcp, 95) },
    addedP50Ms: Number((pct(mcp, 50) - pct(inv, 50)).toFixed(3)),
  };
}

const { url, stop } = await startBenchApp({
  name: 'mcp',
  pgPort,
  appPort,
  env: {
    // measures speed, not the rate limiter (bench/abuse measures that): limits out of the way
    SKILLYARD_RATE_LIMIT_ANONYMOUS: '100000000',
    SKILLYARD_RATE_LIMIT_AUTHENTICATED: '100000000',
    SKILLYARD_LOG_LEVEL: 'warn',
  },
  startTimeoutMs: 900_000,
});

try {
  const loadBefore = loadAverage();
  const db = createDb(url);
  const user = await db.user.create({ data: { name: 'bench' } });
  const { token } = await createApiToken(db, { userId: user.id, name: 'bench', scopes: ['invoke'] });
  const args = { text: 'One two three. Four five!' };
  const body = JSON.stringify({ args, skill: '@skillyard/text-stats' });

  const invokeWith =
    (headers: Record<string, string>): Call =>
    async () => {
      const res = await fetch(`${base}/api/v1/tools/count-words/invoke`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
      if (res.status !== 200) throw new Error(`invoke answered ${res.status}: ${await res.text()}`);
      await res.json();
    };
  const mcpSession = async (headers: Record<string, string>) => {
    const client = new Client({ name: 'bench', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/api/mcp/skillyard/text-stats`), { requestInit: { headers } }));
    const call: Call = async () => {
      const res = await client.callTool({ name: 'count-words', arguments: args });
      if (res.isError) throw new Error(`MCP call failed: ${JSON.stringify(res.content)}`);
    };
    return { client, call };
  };

  const auth = { authorization: `Bearer ${token}` };
  const tokenMcp = await mcpSession(auth);
  const apiToken = await compare(invokeWith(auth), tokenMcp.call);
  await tokenMcp.client.close();

  // an anonymous invoke client that keeps its visitor cookie
  const first = await fetch(`${base}/api/v1/tools/count-words/invoke`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  await first.text();
  const cookie = (first.headers.get('set-cookie') ?? '').split(';')[0];
  const anonMcp = await mcpSession({});
  const anonymous = { visitorCookie: Boolean(cookie), ...(await compare(invokeWith(cookie ? { cookie } : {}), anonMcp.call)) };
  await anonMcp.client.close();
  await db.$disconnect();

  console.log(
    JSON.stringify(
      {
        benchmark: 'mcp',
        calls,
        apiToken,
        anonymous,
        target: { addedP50Ms: 1, met: apiToken.addedP50Ms < 1 },
        cpus: os.cpus().length,
        loadAverage: { before: loadBefore, after: loadAverage() },
      },
      null,
      2,
    ),
  );
} finally {
  await stop();
}
