// `npm run bench:instances`: the same invoke load (16 clients, POST
// /api/v1/tools/count-words/invoke with an API token) against one web instance and then
// against two on the same Postgres (the client alternating between them), printing
// throughput and p95 for both; and the delivery delay (p50/p95, ms from an event's
// storage to its arrival) of a scripted run's live events watched over SSE from the
// instance that does not execute it. On one machine of 2 cores no gain is expected: the
// point is no loss and no errors. Prints JSON.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createDb } from '../lib/db/client';
import { createApiToken } from '../lib/auth/api-tokens';
import { readSse } from '../lib/runs/testing/read-sse';
import { startBenchApp } from './bench-app';

const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const clients = 16;
const pgPort = Number(process.env.SKILLYARD_SCRATCH_PG_PORT ?? 54342);
const portA = process.env.BENCH_PORT_A ?? '3490';
const portB = process.env.BENCH_PORT_B ?? '3491';
const A = `http://127.0.0.1:${portA}`;
const B = `http://127.0.0.1:${portB}`;
const quiet = { SKILLYARD_RATE_LIMIT_ANONYMOUS: '100000000', SKILLYARD_RATE_LIMIT_AUTHENTICATED: '100000000', SKILLYARD_LOG_LEVEL: 'warn' };

const pct = (sorted: number[], p: number) => Number((sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN).toFixed(2));

async function load(origins: string[], token: string) {
  const body = JSON.stringify({ args: { text: 'One two three. Four five!' }, skill: '@skillyard/text-stats' });
  const times: number[] = [];
  let errors = 0;
  let n = 0;
  const end = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (Date.now() < end) {
        const origin = origins[n++ % origins.length];
        const t = performance.now();
        const res = await fetch(`${origin}/api/v1/tools/count-words/invoke`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body,
        }).catch(() => null);
        if (!res || res.status !== 200) errors++;
        await res?.arrayBuffer();
        times.push(performance.now() - t);
      }
    }),
  );
  times.sort((x, y) => x - y);
  return { instances: origins.length, requests: times.length, errors, rps: Math.round(times.length / seconds), p50Ms: pct(times, 0.5), p95Ms: pct(times, 0.95) };
}

const app = await startBenchApp({ name: 'instances', pgPort, appPort: portA, env: quiet });
const nextBin = path.join(process.cwd(), 'node_modules', 'next', 'dist', 'bin', 'next');
// B: the same build on the same database, serving only (no worker)
const b = spawn(process.execPath, ['--no-node-snapshot', nextBin, 'start', '--port', portB], {
  env: { ...process.env, ...quiet, DATABASE_URL: app.url, NODE_ENV: 'production', SKILLYARD_WORKER: '0' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
try {
  for (
    const deadline = Date.now() + 120_000;
    !(await fetch(`${B}/api/health/ready`).then(
      (r) => r.ok,
      () => false,
    ));
  ) {
    if (Date.now() > deadline) throw new Error('instance B was not ready in time');
    await new Promise((r) => setTimeout(r, 250));
  }
  const db = createDb(app.url);
  const user = await db.user.create({ data: { name: 'bench-instances' } });
  const { token } = await createApiToken(db, { userId: user.id, name: 'bench', scopes: ['invoke', 'runs'] });

  await load([A], token); // warm both the pool and the isolates
  const one = await load([A], token);
  await load([B], token);
  const two = await load([A, B], token);

  // SSE from B of a run A executes: delay from each event's storage to its arrival
  const delays: number[] = [];
  for (let r = 0; r < 5; r++) {
    const created = await fetch(`${A}/api/v1/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        skills: ['@skillyard/text-stats'],
        provider: 'scripted',
        task: 'bench',
        script: [...Array.from({ length: 20 }, (_, i) => `${i}`), 'ctx.finish(1)'],
        maxTurns: 30,
      }),
    });
    const { id } = (await created.json()) as { id: string };
    const watchedFrom = Date.now();
    const res = await fetch(`${B}/api/v1/runs/${id}/events`, { headers: { authorization: `Bearer ${token}` } });
    const reader = res.body!.getReader();
    const chunks: Uint8Array[] = [];
    const arrivals: number[] = [];
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      chunks.push(value);
      arrivals.push(Date.now());
    }
    // the events' own times against the arrival of the chunk that carried them
    const sse = await readSse(new Blob(chunks as BlobPart[]).stream());
    let offset = 0;
    let chunk = 0;
    const text = new TextDecoder();
    const ends = chunks.map((c) => (offset += text.decode(c).length));
    for (const e of sse.events) {
      const at = sse.raw.indexOf(`id: ${e.id}\n`);
      while (chunk < ends.length - 1 && ends[chunk] <= at) chunk++;
      const stored = Date.parse(String(e.data.createdAt));
      // events stored before the stream opened are replayed, not delivered live
      if (stored >= watchedFrom) delays.push(arrivals[chunk] - stored);
    }
  }
  delays.sort((x, y) => x - y);
  await db.$disconnect();
  console.log(
    JSON.stringify(
      {
        benchmark: 'instances',
        node: process.version,
        clients,
        secondsPerLoad: seconds,
        invoke: { oneInstance: one, twoInstances: two, throughputRatio: Number((two.rps / one.rps).toFixed(2)) },
        sseFromOtherInstance: { events: delays.length, p50Ms: pct(delays, 0.5), p95Ms: pct(delays, 0.95) },
      },
      null,
      2,
    ),
  );
} finally {
  b.kill('SIGKILL');
  await app.stop();
}
