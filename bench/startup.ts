// Time from the start command to the first 200 from /api/health, on a cold data folder
// (initdb, migrations, seed) and on a warm one (the same folder again). The production
// build is made first and is not part of either figure. Prints JSON.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = process.cwd();
const appPort = process.env.BENCH_PORT ?? '3210';
const pgPort = process.env.BENCH_PG_PORT ?? '54339';
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'skillyard-bench-'));
fs.chmodSync(dataDir, 0o755); // the embedded server runs as its own user

async function waitForHealth(deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`http://127.0.0.1:${appPort}/api/health`);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the app did not answer /api/health in time');
}

async function measure(): Promise<number> {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: appPort, SKILLYARD_PG_PORT: pgPort, SKILLYARD_DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  const started = Date.now();
  const child = spawn(process.execPath, ['scripts/start.mjs'], { env, stdio: 'ignore', detached: true });
  try {
    await waitForHealth(started + 180_000);
    return Date.now() - started;
  } finally {
    process.kill(-child.pid!, 'SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

// make sure the build exists and is current, outside the measurement
const build = spawnSync(process.execPath, [path.join(root, 'node_modules/next/dist/bin/next'), 'build'], {
  stdio: 'ignore',
  env: { ...process.env, NODE_ENV: 'production' },
});
if (build.status !== 0) throw new Error('next build failed');

const coldMs = await measure();
const warmMs = await measure();
fs.rmSync(dataDir, { recursive: true, force: true });
console.log(JSON.stringify({ benchmark: 'startup', coldMs, warmMs, target: { warmMs: 10_000 }, cpus: os.cpus().length }, null, 2));
