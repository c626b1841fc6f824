// One live run watched by many viewers at once (a shared link going around, issue 28):
// a production server (trusting one proxy, so each viewer is its own address), a manual
// run, VIEWERS event streams from a separate process, then TURNS turns sent one every
// TURN_MS. Prints JSON: delivery p50/p95 (event stored -> viewer read it), events lost
// and repeated, the server's CPU time while it fans out, the web process's memory per
// viewer, and the server's /api/health p95
// while it fans out. Run: npm run bench:fanout   (BENCH_VIEWERS, BENCH_TURNS, BENCH_PORT)
import { spawn } from 'node:child_process';
import { serverCpuMs, serverRssKiB, startBenchApp } from './bench-app';

const viewers = Number(process.env.BENCH_VIEWERS ?? 1000);
const turns = Number(process.env.BENCH_TURNS ?? 20);
const turnMs = Number(process.env.BENCH_TURN_MS ?? 150);
const appPort = process.env.BENCH_PORT ?? '3214';
const pgPort = Number(process.env.BENCH_PG_PORT ?? 54341);
const base = `http://127.0.0.1:${appPort}`;

const pct = (xs: number[], p: number) => {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

const app = await startBenchApp({
  name: 'fanout',
  startTimeoutMs: 1_800_000,
  pgPort,
  appPort,
  env: {
    SKILLYARD_TRUSTED_PROXIES: '1',
    SKILLYARD_RATE_LIMIT_ANONYMOUS: '100000',
    SKILLYARD_MAX_STREAMS_PER_CALLER: '8',
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

  const clients = spawn(process.execPath, ['--import', 'tsx', 'bench/fanout-clients.ts', `${base}/api/v1/runs/${run.id}/events`, String(viewers)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  clients.stdout.on('data', (c) => (out += c));
  await new Promise<void>((resolve) => {
    const check = setInterval(() => out.startsWith('connected\n') && (clearInterval(check), resolve()), 50);
  });
  await new Promise((r) => setTimeout(r, 1000));
  const rssConnected = serverRssKiB(app.pgid);

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
  await new Promise((resolve) => clients.once('exit', resolve));
  const cpuMs = serverCpuMs(app.pgid) - cpuBefore;
  sending = false;
  await probe;
  const result = JSON.parse(out.slice('connected\n'.length)) as { received: number; duplicates: number; failed: number; latencies: number[]; perClient: number[] };
  const stored = (
    (await await fetch(`${base}/api/v1/runs/${run.id}/events?format=json`, { headers: { 'x-forwarded-for': '192.0.2.2' } }).then((r) => r.json())) as { events: unknown[] }
  ).events.length;
  const lost = result.perClient.reduce((sum, n) => sum + Math.max(0, stored - n), 0) + result.failed * stored;
  console.log(
    JSON.stringify({
      bench: 'fanout',
      date: new Date().toISOString(),
      viewers,
      connected: viewers - result.failed,
      eventsPerViewer: stored,
      delivery: { p50Ms: pct(result.latencies, 50), p95Ms: pct(result.latencies, 95), maxMs: pct(result.latencies, 100) },
      lost,
      duplicates: result.duplicates,
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
