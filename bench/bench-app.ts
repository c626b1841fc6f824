// The production app on a throwaway database for the HTTP benches (http, mcp, abuse):
// `scripts/start.mjs` (which builds when the build is stale) in a process group of its
// own, waited for on /api/health; `stop()` ends the group and drops the database.
import { execFileSync, spawn, type StdioOptions } from 'node:child_process';
import { processCpuMs } from '../lib/sandbox/process-cpu';
import { createScratchDatabase, databaseUrl, dropScratchDatabase, startScratchServer } from '../lib/db/scratch-database';

export type BenchApp = { url: string; stop: () => Promise<void>; /** process group of the app (start.mjs, next, sandbox workers) */ pgid: number };

export async function startBenchApp(opts: {
  /** scratch server and database name part */
  name: string;
  pgPort: number;
  appPort: string;
  env?: Record<string, string>;
  stdio?: StdioOptions;
  /** how long stop() waits for the app to end before dropping its database */
  settleMs?: number;
  /** the first start may run next build */
  startTimeoutMs?: number;
}): Promise<BenchApp> {
  const scratch = await startScratchServer(`bench-${opts.name}`, opts.pgPort);
  const dbName = await createScratchDatabase(scratch.adminUrl, `skillyard_bench_${opts.name}`);
  const url = databaseUrl(scratch.adminUrl, dbName);
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: opts.appPort, DATABASE_URL: url, NODE_ENV: 'production', ...opts.env };
  const child = spawn(process.execPath, ['scripts/start.mjs', '--port', opts.appPort], { env, stdio: opts.stdio ?? ['ignore', 'ignore', 'inherit'], detached: true });
  const stop = async () => {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      // already gone
    }
    await new Promise((r) => setTimeout(r, opts.settleMs ?? 500));
    await dropScratchDatabase(scratch.adminUrl, dbName).catch(() => {});
    await scratch.stop();
  };
  const deadline = Date.now() + (opts.startTimeoutMs ?? 600_000);
  try {
    while (
      !(await fetch(`http://127.0.0.1:${opts.appPort}/api/health`).then(
        (r) => r.ok,
        () => false,
      ))
    ) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error('the app did not answer /api/health in time');
      await new Promise((r) => setTimeout(r, 250));
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, stop, pgid: child.pid! };
}

/** Resident memory (KiB) of the Next.js server process in the app's process group. */
export function serverRssKiB(pgid: number): number {
  const out = execFileSync('ps', ['-o', 'pid=,rss=,args=', '-g', String(pgid)], { encoding: 'utf8' });
  return out
    .split('\n')
    .filter((l) => /next-server|next start|next\/dist/.test(l))
    .reduce((sum, l) => sum + Number(l.trim().split(/\s+/)[1] ?? 0), 0);
}

/**
 * CPU time (user + system, ms) the Next.js server process in the app's process group has
 * used so far: the difference across a phase is that phase's cost, which a busy machine
 * stretches far less than it stretches latencies.
 */
export function serverCpuMs(pgid: number): number {
  const out = execFileSync('ps', ['-o', 'pid=,args=', '-g', String(pgid)], { encoding: 'utf8' });
  let ms = 0;
  for (const line of out.split('\n').filter((l) => /next-server|next start|next\/dist/.test(l))) {
    // null: gone meanwhile, or no /proc (not Linux)
    ms += processCpuMs(Number(line.trim().split(/\s+/)[0])) ?? 0;
  }
  return ms;
}
