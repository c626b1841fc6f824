// Many large downloads at once (issue 28): a production server, one public 24 MB
// incompressible package, then DOWNLOADS concurrent clients each reading the whole
// tarball (each from its own address). Prints JSON: throughput, per-download time, the
// web process's peak memory while they run (flat: the bytes stream from storage part by
// part), and that every copy matched its integrity; then the same with a CDN-style
// revalidation (If-None-Match: 304, no body).
// Run: npm run bench:downloads   (BENCH_DOWNLOADS, BENCH_MB, BENCH_PORT, BENCH_PG_PORT)
import crypto from 'node:crypto';
import { createDb } from '../lib/db/client';
import { readUpload } from '../lib/registry/read-upload';
import { publishVersion } from '../lib/registry/publish-version';
import { serverCpuMs, serverRssKiB, startBenchApp } from './bench-app';

const downloads = Number(process.env.BENCH_DOWNLOADS ?? 36);
const megabytes = Number(process.env.BENCH_MB ?? 24);
const appPort = process.env.BENCH_PORT ?? '3215';
const pgPort = Number(process.env.BENCH_PG_PORT ?? 54342);
const base = `http://127.0.0.1:${appPort}`;
const metricsToken = crypto.randomBytes(24).toString('hex');

/** the server's own view of its memory (prom-client's Node figures, MiB): where the growth is */
async function heapFigures(): Promise<Record<string, number>> {
  const text = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } }).then((r) => r.text());
  const read = (name: string) => Number(new RegExp(`^skillyard_${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1] ?? NaN) / 1024 / 1024;
  return {
    heapUsed: read('nodejs_heap_size_used_bytes'),
    heapTotal: read('nodejs_heap_size_total_bytes'),
    external: read('nodejs_external_memory_bytes'),
    rss: read('process_resident_memory_bytes'),
  };
}

const app = await startBenchApp({
  name: 'downloads',
  pgPort,
  appPort,
  startTimeoutMs: 1_800_000,
  env: { SKILLYARD_TRUSTED_PROXIES: '1', SKILLYARD_RATE_LIMIT_ANONYMOUS: '100000', SKILLYARD_METRICS_TOKEN: metricsToken },
});
const db = createDb(app.url);
try {
  await db.scope.upsert({ where: { name: 'bench' }, create: { name: 'bench', kind: 'user' }, update: {} });
  const enc = new TextEncoder();
  const files = [{ path: 'big/SKILL.md', content: enc.encode('---\nname: big\ndescription: A large package for the download bench.\n---\n\n# big\n\nData in data/.\n') }];
  for (let i = 0; i < megabytes; i++) files.push({ path: `big/data/blob-${i}.bin`, content: new Uint8Array(crypto.randomBytes(1024 * 1024)) });
  const pkg = readUpload({ kind: 'files', files });
  if (!pkg.manifest) throw new Error(JSON.stringify(pkg.diagnostics));
  const published = await publishVersion(db, { scope: 'bench', manifest: pkg.manifest, files: pkg.files, version: '1.0.0' });
  const url = `${base}/api/v1/skills/bench/big/1.0.0/tarball`;

  const rssBefore = serverRssKiB(app.pgid);
  const heapBefore = await heapFigures();
  let peak = rssBefore;
  const sampler = setInterval(() => (peak = Math.max(peak, serverRssKiB(app.pgid))), 100);
  const heapPeak: Record<string, number> = { ...heapBefore };
  const heapSampler = setInterval(
    () =>
      void heapFigures().then((h) => {
        for (const [k, v] of Object.entries(h)) heapPeak[k] = Math.max(heapPeak[k], v);
      }),
    250,
  );
  const cpuBefore = serverCpuMs(app.pgid);
  const started = performance.now();
  const times: number[] = [];
  let bytes = 0;
  let intact = 0;
  let etag = '';
  await Promise.all(
    Array.from({ length: downloads }, async (_, i) => {
      const t = performance.now();
      const res = await fetch(url, { headers: { 'x-forwarded-for': `10.9.${i >> 8}.${i & 255}` } });
      if (!res.ok) throw new Error(`download ${i}: ${res.status}`);
      etag = res.headers.get('etag') ?? '';
      const hash = crypto.createHash('sha512');
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        hash.update(chunk);
        bytes += chunk.byteLength;
      }
      if (`sha512-${hash.digest('base64')}` === published.integrity) intact++;
      times.push(performance.now() - t);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpuMs = serverCpuMs(app.pgid) - cpuBefore;
  clearInterval(sampler);
  clearInterval(heapSampler);
  // each from its own address, as the downloads (one address has at most 16 requests in progress)
  const revalidations = await Promise.all(
    Array.from({ length: downloads }, (_, i) => fetch(url, { headers: { 'if-none-match': etag, 'x-forwarded-for': `10.8.${i >> 8}.${i & 255}` } }).then((r) => r.status)),
  );
  const sorted = [...times].sort((a, b) => a - b);
  console.log(
    JSON.stringify({
      bench: 'downloads',
      date: new Date().toISOString(),
      downloads,
      tarballMiB: Number((bytes / downloads / 1024 / 1024).toFixed(1)),
      intact,
      throughputMiBps: Number((bytes / 1024 / 1024 / seconds).toFixed(1)),
      perDownloadMs: { p50: Math.round(sorted[Math.floor(sorted.length / 2)]), max: Math.round(sorted[sorted.length - 1]) },
      // the server's CPU time while the downloads ran
      serverCpuMs: cpuMs,
      memory: {
        beforeMiB: Math.round(rssBefore / 1024),
        peakMiB: Math.round(peak / 1024),
        growthMiB: Math.round((peak - rssBefore) / 1024),
        growthPerDownloadKiB: Math.round((peak - rssBefore) / downloads),
        // the server's own figures (prom-client, every 250 ms): before -> peak, MiB
        heap: Object.fromEntries(Object.keys(heapBefore).map((k) => [k, `${Math.round(heapBefore[k])} -> ${Math.round(heapPeak[k])}`])),
      },
      revalidated304: revalidations.filter((s) => s === 304).length,
    }),
  );
} finally {
  await db.$disconnect();
  await app.stop();
}
