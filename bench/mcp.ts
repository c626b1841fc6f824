// The overhead of an MCP tools/call round trip over the invoke API for the same tool, on
// one production server (`npm start` on a throwaway data folder): sequential calls of
// count-words through POST /api/v1/tools/count-words/invoke and through an MCP session on
// /api/mcp/skillyard/text-stats (the SDK's own client). Prints JSON: p50/p95 of each and
// the added p50 (target: under 1 ms).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const root = process.cwd();
const appPort = process.env.BENCH_PORT ?? '3211';
const pgPort = process.env.BENCH_PG_PORT ?? '54338';
const calls = Number(process.env.BENCH_CALLS ?? 400);
const base = `http://127.0.0.1:${appPort}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'skillyard-bench-mcp-'));
fs.chmodSync(dataDir, 0o755);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return Number(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))].toFixed(3));
};

async function waitForHealth(deadline: number) {
  while (Date.now() < deadline) {
    if (await fetch(`${base}/api/health`).then((r) => r.status === 200, () => false)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the app did not answer /api/health in time');
}

const build = spawnSync(process.execPath, [path.join(root, 'node_modules/next/dist/bin/next'), 'build'], { stdio: 'ignore', env: { ...process.env, NODE_ENV: 'production' } });
if (build.status !== 0) throw new Error('next build failed');

const env: NodeJS.ProcessEnv = {
  ...process.env,
  PORT: appPort,
  SKILLYARD_PG_PORT: pgPort,
  SKILLYARD_DATA_DIR: dataDir,
  NODE_ENV: 'production',
  // measures speed, not the rate limiter (bench/abuse measures that): limits out of the way
  SKILLYARD_RATE_LIMIT_ANONYMOUS: '100000000',
  SKILLYARD_RATE_LIMIT_AUTHENTICATED: '100000000',
};
delete env.DATABASE_URL;
const child = spawn(process.execPath, ['scripts/start.mjs'], { env, stdio: 'ignore', detached: true });
try {
  await waitForHealth(Date.now() + 240_000);
  const args = { text: 'One two three. Four five!' };

  const invoke = async () => {
    const res = await fetch(`${base}/api/v1/tools/count-words/invoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ args, skill: '@skillyard/text-stats' }),
    });
    if (res.status !== 200) throw new Error(`invoke answered ${res.status}: ${await res.text()}`);
    await res.json();
  };
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/api/mcp/skillyard/text-stats`)));
  const mcpCall = async () => {
    const res = await client.callTool({ name: 'count-words', arguments: args });
    if (res.isError) throw new Error(`MCP call failed: ${JSON.stringify(res.content)}`);
  };

  // warm both paths, then alternate so drift hits both alike
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
  await client.close();
  const out = {
    benchmark: 'mcp',
    calls,
    invokeApiMs: { p50: pct(inv, 50), p95: pct(inv, 95) },
    mcpToolsCallMs: { p50: pct(mcp, 50), p95: pct(mcp, 95) },
    addedP50Ms: Number((pct(mcp, 50) - pct(inv, 50)).toFixed(3)),
    target: { addedP50Ms: 1 },
    cpus: os.cpus().length,
  };
  console.log(JSON.stringify(out, null, 2));
} finally {
  process.kill(-child.pid!, 'SIGTERM');
  await new Promise((r) => child.once('exit', r));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
