// One live run watched by many viewers at once (a shared link going around, issue 28):
// a production server (trusting one proxy, so each viewer is its own address), a manual
// run, VIEWERS event streams from CLIENT_PROCS separate processes, then TURNS turns sent
// one every TURN_MS. Prints JSON: delivery p50/p95 (event created -> the viewer's socket
// read it), the server's own part of that (skillyard_sse_fanout_seconds: created -> its
// batch written to every viewer, from /metrics), the spread per event (first viewer ->
// last viewer), events lost and repeated, the server's CPU time while it fans out, the
// web process's memory per viewer, and the server's /api/health p95 while it fans out.
// Run: npm run bench:fanout   (BENCH_VIEWERS, BENCH_TURNS, BENCH_CLIENT_PROCS, BENCH_PORT, BENCH_PG_PORT)
import crypto from 'node:crypto';
import { spawn } from 'node:child_process';
import { serverCpuMs, serverRssKiB, startBenchApp } from './bench-app';

const viewers = Number(process.env.BENCH_VIEWERS ?? 1000);
const turns = Number(process.env.BENCH_TURNS ?? 20);
const turnMs = Number(process.env.BENCH_TURN_MS ?? 150);
// one process of viewers: on 2 cores, more of them only take turns with the server
const clientProcs = Number(process.env.BENCH_CLIENT_PROCS ?? 1);
const appPort = process.env.BENCH_PORT ?? '3214';
const pgPort = Number(process.env.BENCH_PG_PORT ?? 54341);
const base = `http://127.0.0.1:${appPort}`;
const metricsToken = crypto.randomBytes(24).toString('hex');

const pct = (xs: number[], p: number) => {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

/** skillyard_sse_fanout_seconds as cumulative counts per bucket bound (ms) */
async function fanoutBuckets(): Promise<Map<number, number>> {
  const text = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } }).then((r) => r.text());
  const out = new Map<number, number>();
  for (const m of text.matchAll(/^skillyard_sse_fanout_seconds_bucket\{le="([^"]+)"\} (\d+)$/gm)) out.set(m[1] === '+Inf' ? Infinity : Number(m[1]) * 1000, Number(m[2]));
  return out;
}
/** the bucket bound under which a share p of the batches (observed between two scrapes) fell */
function bucketQuantile(before: Map<number, number>, after: Map<number, number>, p: number): number | null {
  const bounds = [...after.keys()].sort((a, b) => a - b);
  const total = (after.get(Infinity) ?? 0) - (before.get(Infinity) ?? 0);
  if (!total) return null;
  return bounds.find((b) => (after.get(b) ?? 0) - (before.get(b) ?? 0) >= p * total) ?? null;
}

const app = await startBenchApp({
  name: 'fanout',
  startTimeoutMs: 1_800_000,
  pgPort,
  appPort,
  env: {
    SKILLYARD_TRUSTED_PROXIES: '1',
    SKILLYARD_RATE_LIMIT_ANONYMOUS: '100000',
    SKILLYARD_MAX_STREAMS_PER_CALLER: '8',
    SKILLYARD_METRICS_TOKEN: metricsToken,
  },
});
try {
  const created = await fetch(`${base}/api/v1/runs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': '192.0.2.1' },
    body: JSON.stringify({ skills: ['@skillyard/text-stats'], provider: 'manual', task: 'fan-out bench', visibility: 'unlisted', maxTurns: turns + 2, maxSteps: turns + 2 }),
  });
  if (!created.ok) throw new Error(`creating the run: ${created.status} ${await created.text()}`);
  const run = (await created.json()) as { id: string; controlToken: string };
  await new Promise((r) => setTimeout(r, 500));
  const rssBefore = serverRssKiB(app.pgid);

  const clients = Array.from({ length: clientProcs }, (_, p) => {
    const first = Math.floor((p * viewers) / clientProcs);
    const count = Math.floor(((p + 1) * viewers) / clientProcs) - first;
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/fanout-clients.ts', `${base}/api/v1/runs/${run.id}/events`, String(count), String(first)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    return { out: () => out, exited };
  });
  await new Promise<void>((resolve) => {
    const check = setInterval(() => clients.every((c) => c.out().startsWith('connected\n')) && (clearInterval(check), resolve()), 50);
  });
  await new Promise((r) => setTimeout(r, 1000));
  const rssConnected = serverRssKiB(app.pgid);

  const bucketsBefore = await fanoutBuckets();
  const cpuBefore = serverCpuMs(app.pgid);
  const health: number[] = [];
  let sending = true;
  const probe = (async () => {
    while (sending) {
      const t = performance.now();
      await fetch(`${base}/api/health`).then((r) => r.text());
      health.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  const turnHeaders = { 'content-type': 'application/json', 'x-run-control': run.controlToken, 'x-forwarded-for': '192.0.2.1' };
  for (let i = 0; i < turns; i++) {
    const code = i === turns - 1 ? 'ctx.finish("done")' : `return (await ctx.invoke("count-words", { text: "turn ${i} of the fan-out bench" })).words;`;
    const res = await fetch(`${base}/api/v1/runs/${run.id}/turns`, { method: 'POST', headers: turnHeaders, body: JSON.stringify({ turn: { code } }) });
    if (!res.ok) throw new Error(`turn ${i}: ${res.status} ${await res.text()}`);
    await new Promise((r) => setTimeout(r, turnMs));
  }
  await Promise.all(clients.map((c) => c.exited));
  const cpuMs = serverCpuMs(app.pgid) - cpuBefore;
  sending = false;
  await probe;
  const bucketsAfter = await fanoutBuckets();
  type ClientResult = { received: number; duplicates: number; failed: number; latencies: number[]; perClient: number[]; bySeq: Record<string, [number, number]> };
  const parts = clients.map((c) => JSON.parse(c.out().slice('connected\n'.length)) as ClientResult);
  const latencies = parts.flatMap((p) => p.latencies);
  const perClient = parts.flatMap((p) => p.perClient);
  const failed = parts.reduce((sum, p) => sum + p.failed, 0);
  // per event: the first and the last viewer's delay over every client process
  const bySeq = new Map<string, [number, number]>();
  for (const p of parts)
    for (const [seq, [lo, hi]] of Object.entries(p.bySeq)) {
      const b = bySeq.get(seq) ?? [lo, hi];
      bySeq.set(seq, [Math.min(b[0], lo), Math.max(b[1], hi)]);
    }
  const spreads = [...bySeq.values()].map(([lo, hi]) => hi - lo);
  const stored = ((await fetch(`${base}/api/v1/runs/${run.id}/events?format=json`, { headers: { 'x-forwarded-for': '192.0.2.2' } }).then((r) => r.json())) as { events: unknown[] })
    .events.length;
  const lost = perClient.reduce((sum, n) => sum + Math.max(0, stored - n), 0) + failed * stored;
  console.log(
    JSON.stringify({
      bench: 'fanout',
      date: new Date().toISOString(),
      load: (await import('node:os')).loadavg().map((l) => Number(l.toFixed(1))),
      viewers,
      clientProcesses: clientProcs,
      connected: viewers - failed,
      eventsPerViewer: stored,
      delivery: { p50Ms: pct(latencies, 50), p95Ms: pct(latencies, 95), maxMs: pct(latencies, 100) },
      // the server's part: created -> its batch written to every viewer (bucket bounds, ms)
      serverFanout: {
        batches: (bucketsAfter.get(Infinity) ?? 0) - (bucketsBefore.get(Infinity) ?? 0),
        p50AtMostMs: bucketQuantile(bucketsBefore, bucketsAfter, 0.5),
        p95AtMostMs: bucketQuantile(bucketsBefore, bucketsAfter, 0.95),
      },
      // per event, first viewer -> last viewer
      spread: { p50Ms: pct(spreads, 50), p95Ms: pct(spreads, 95) },
      lost,
      duplicates: parts.reduce((sum, p) => sum + p.duplicates, 0),
      // the server's CPU time from the first turn until every viewer had the run's end
      serverCpuMs: cpuMs,
      memory: { beforeMiB: Math.round(rssBefore / 1024), connectedMiB: Math.round(rssConnected / 1024), perViewerKiB: Math.round((rssConnected - rssBefore) / viewers) },
      healthDuringFanout: { p50Ms: Number(pct(health, 50)?.toFixed(1)), p95Ms: Number(pct(health, 95)?.toFixed(1)) },
      target: { p95Ms: 100, lost: 0 },
    }),
  );
} finally {
  await app.stop();
}
