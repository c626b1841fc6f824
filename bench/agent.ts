// The agent benchmark of issue 5, printed as JSON:
// - loop overhead per step without a model (bench/agent-loop.ts, run as a child);
// - with 50 concurrent scripted runs on the real worker, Postgres and an HTTP SSE
//   endpoint: the time from an event's creation to its arrival at an SSE client
//   (p50/p95/max) and the number of events lost or duplicated. Each run belongs to a
//   user of its own (as 50 visitors' runs would, so no per-principal cap serialises
//   them), and every client is connected before the worker starts: the latency is that
//   of live delivery. Events written before a client connected (the run's creation)
//   arrive by backfill and are counted apart.
// Run: node --no-node-snapshot --import tsx bench/agent.ts [--runs 50] [--turns 8]
import { spawn, spawnSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { createDb } from '../lib/db/client';
import { applyMigrations } from '../lib/db/migrate';
import { withScratchDatabase } from '../lib/db/scratch-database';
import { seedBundledSkills } from '../lib/registry/seed-bundled-skills';
import { createServerContext } from '../lib/server/server-context';
import { createRun } from '../lib/runs/create-run';
import { runEventBus } from '../lib/runs/run-event-bus';
import { startRunWorker } from '../lib/runs/run-worker';
import { streamRunEvents } from '../lib/runs/stream-run-events';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '50' }, turns: { type: 'string', default: '8' } } });
const RUNS = Number(values.runs);
const TURNS = Number(values.turns);

function loopOverhead(): unknown {
  const child = spawnSync(process.execPath, ['--no-node-snapshot', '--import', 'tsx', 'bench/agent-loop.ts'], { encoding: 'utf8' });
  try {
    return JSON.parse(child.stdout.slice(child.stdout.indexOf('{')));
  } catch {
    return { error: child.stderr.slice(0, 500) };
  }
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

async function sseLatency(url: string) {
  await applyMigrations(url);
  const db = createDb(url);
  await seedBundledSkills(db);
  await runEventBus().connect(url);
  const wiring = createServerContext({ db });
  // one user per run: 50 people watching their own run
  const users = await Promise.all(Array.from({ length: RUNS }, (_, i) => db.user.create({ data: { name: `bench-${i}` } })));
  const server = http.createServer(async (req, res) => {
    const id = req.url!.split('/').pop()!;
    const abort = new AbortController();
    req.on('close', () => abort.abort());
    res.writeHead(200, { 'Content-Type': 'text/event-stream' });
    res.flushHeaders();
    const reader = streamRunEvents(db, id, 0, abort.signal).getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      res.write(value);
    }
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;

  const script = Array.from({ length: TURNS }, (_, i) => `return (await ctx.invoke("count-words", { text: "turn ${i} of the benchmark" })).words;`);
  script.push('ctx.finish("done")');
  // the clients run in their own process, as browsers would, and are connected first
  const clients = spawn(process.execPath, ['--import', 'tsx', 'bench/sse-clients.ts', `http://127.0.0.1:${port}/events`], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  await new Promise<void>((resolve) =>
    clients.stdout.on('data', (chunk) => {
      out += chunk;
      if (out.startsWith('ready\n')) resolve();
    }),
  );
  const started = Date.now();
  const ids = await Promise.all(
    users.map((user) =>
      createRun(db, {
        config: { skills: ['@skillyard/text-stats'], provider: 'scripted', script, task: 'bench', maxSteps: TURNS + 1, maxTurns: TURNS + 2 },
        userId: user.id,
      }).then((r) => r.id),
    ),
  );
  const createMs = Date.now() - started;
  // every client follows its run's stream before any run starts
  clients.stdin.end(JSON.stringify(ids) + '\n');
  await new Promise<void>((resolve) =>
    clients.stdout.on('data', () => {
      if (out.startsWith('ready\nconnected\n')) resolve();
    }),
  );
  const workerStarted = Date.now();
  const worker = startRunWorker(wiring, { concurrency: RUNS });
  await new Promise((resolve) => clients.once('exit', resolve));
  out = out.slice('ready\nconnected\n'.length);
  const { received, duplicates, latencies, backfilled } = JSON.parse(out) as { received: number; duplicates: number; latencies: number[]; backfilled: number };
  const wallMs = Date.now() - workerStarted;
  const stored = await db.runEvent.count({ where: { runId: { in: ids } } });
  const statuses = await db.run.groupBy({ by: ['status'], where: { id: { in: ids } }, _count: true });
  await worker.stop();
  await new Promise((r) => server.close(r));
  await runEventBus().close();
  await wiring.close();
  await db.$disconnect();
  latencies.sort((a, b) => a - b);
  return {
    runs: RUNS,
    turnsPerRun: TURNS,
    eventsStored: stored,
    eventsReceived: received,
    eventsLost: stored - (received - duplicates),
    duplicates,
    /** live events: written after the client was connected */
    latencyMs: { p50: percentile(latencies, 50), p95: percentile(latencies, 95), max: latencies.at(-1) ?? NaN },
    liveEvents: latencies.length,
    /** events written before their client connected (the runs' creation), delivered by backfill */
    backfilled,
    principals: new Set(users.map((u) => u.id)).size,
    /** worker start → last client done */
    wallMs,
    createMs,
    runStatuses: Object.fromEntries(statuses.map((s) => [s.status, s._count])),
  };
}

const loop = loopOverhead();
const sse = await withScratchDatabase(sseLatency);
console.log(JSON.stringify({ benchmark: 'agent', loopOverhead: loop, sse, target: { loopMsPerStep: 2, sseP95Ms: 50, eventsLost: 0 } }, null, 2));
process.exit(0);
