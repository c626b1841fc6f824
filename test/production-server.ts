// The real production server for integration tests of the HTTP boundary: `scripts/start.mjs`
// (which runs `next build` first when the build is stale: the first start can take minutes)
// with default settings, on a fresh database of the integration tests' Postgres server, in a
// process group of its own. SKILLYARD_TEST_APP_PORT picks its port; SKILLYARD_TEST_APP_ROOT
// another checkout to serve (to see a test fail on older code).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import { createScratchDatabase, databaseUrl, dropScratchDatabase } from '../lib/db/scratch-database';

export type ProductionServer = {
  base: string;
  databaseUrl: string;
  /** resident memory of the server's processes (the web process and its children), bytes */
  rssBytes: () => number;
  stop: () => Promise<void>;
};

function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // the fields after the command name (which may hold spaces) start with state, ppid
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

function treeRss(pid: number): number {
  let own = 0;
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    own = m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
  return own + childrenOf(pid).reduce((n, c) => n + treeRss(c), 0);
}

export async function startProductionServer(opts: { env?: Record<string, string> } = {}): Promise<ProductionServer> {
  const root = process.env.SKILLYARD_TEST_APP_ROOT ?? path.resolve(import.meta.dirname, '..');
  const port = process.env.SKILLYARD_TEST_APP_PORT ?? '3291';
  const adminUrl = inject('adminDatabaseUrl');
  const name = await createScratchDatabase(adminUrl, 'skillyard_http');
  const url = databaseUrl(adminUrl, name);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: port,
    DATABASE_URL: url,
    NODE_ENV: 'production',
    SKILLYARD_LOG_LEVEL: process.env.SKILLYARD_TEST_APP_LOG_LEVEL ?? 'error',
    ...opts.env,
  };
  // what the test process was told about limits must not reach the server: defaults there
  for (const k of Object.keys(env)) if (/^SKILLYARD_(RATE_|MAX_)/.test(k)) delete env[k];
  const child = spawn(process.execPath, ['scripts/start.mjs', '--port', port], { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'], detached: true });
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      // already gone
    }
    await new Promise((r) => setTimeout(r, 1000));
    await dropScratchDatabase(adminUrl, name).catch(() => {});
  };
  const deadline = Date.now() + 900_000;
  while (
    !(await fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (Date.now() > deadline || child.exitCode !== null) {
      await stop();
      throw new Error(`the production server (${root}) did not answer /api/health`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { base, databaseUrl: url, rssBytes: () => treeRss(child.pid!), stop };
}
