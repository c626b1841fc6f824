// `npm start` (production server) and `npm run dev` (Next.js dev server): starts the
// embedded Postgres unless DATABASE_URL is set, migrates, seeds the bundled skills,
// builds when the build is missing or older than the sources, then serves. In production
// mode (SKILLYARD_MODE=production, docs/deploy.md) it refuses to start without the
// settings several instances need, and migrates, seeds or builds only when asked.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setting } from '../lib/config/index.ts';
import { prepareDatabase } from './prepare-database.ts';
import { addCompileHints } from './compile-hints.ts';
import { assertProductionSettings, isProductionMode } from '../lib/server/production-settings.ts';

const HELP = `Usage: npm start [-- --port N]      production server (builds first when needed)
       npm run dev [-- --port N]    development server with hot reload

Environment:
  DATABASE_URL        use this Postgres instead of the embedded one
  PORT                HTTP port (default 3000)
  SKILLYARD_PG_PORT   port of the embedded Postgres (default 54329)
  SKILLYARD_DATA_DIR  where the embedded Postgres keeps its data (default .data)
  SKILLYARD_SEED=0    do not load the bundled skills from skills/
  SKILLYARD_WORKER=0  serve only; runs are executed by \`npm run worker\` processes
  SKILLYARD_MODE=production
                      several instances on one Postgres (docs/deploy.md): needs
                      DATABASE_URL, SKILLYARD_SECRET_KEY and SKILLYARD_TRUSTED_PROXIES;
                      does not migrate, seed or build unless SKILLYARD_MIGRATE=1,
                      SKILLYARD_SEED=1, SKILLYARD_BUILD=1 (or run npm run db:migrate,
                      npm run db:seed, npm run build as deploy steps)`;

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  console.log(HELP);
  process.exit(0);
}
const dev = args.includes('--dev');
const portArg = args.indexOf('--port');
const port = portArg >= 0 ? args[portArg + 1] : (process.env.PORT ?? '3000');
const root = process.cwd();
const log = (line: string) => console.log(`[skillyard] ${line}`);
const nextBin = path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next');

function newestSourceMtime(): number {
  let newest = 0;
  const visit = (p: string) => {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(p);
    } catch {
      return;
    }
    if (stat.isDirectory()) {
      if (p.endsWith('generated') || p.endsWith('node_modules')) return;
      for (const name of fs.readdirSync(p)) visit(path.join(p, name));
    } else newest = Math.max(newest, stat.mtimeMs);
  };
  for (const p of ['app', 'lib', 'public', 'next.config.ts', 'package.json', 'postcss.config.mjs']) visit(path.join(root, p));
  return newest;
}

function buildIsCurrent(): boolean {
  try {
    return fs.statSync(path.join(root, '.next', 'BUILD_ID')).mtimeMs >= newestSourceMtime();
  } catch {
    return false;
  }
}

const production = isProductionMode();
const problems = assertProductionSettings(process.env, { web: true });
if (problems.length) {
  for (const p of problems) console.error(`[skillyard] ${p}`);
  process.exit(1);
}
// a laptop's start does everything; production only what it is asked to
const asked = (name: string) => (production ? process.env[name] === '1' : process.env[name] !== '0');

const startedAt = Date.now();
let database: Awaited<ReturnType<typeof prepareDatabase>>;
try {
  database = await prepareDatabase({ root, seed: asked('SKILLYARD_SEED'), migrate: asked('SKILLYARD_MIGRATE'), log });
} catch (err) {
  console.error(`[skillyard] ${(err as Error).message}`);
  process.exit(1);
}
// NEXT_MANUAL_SIG_HANDLE: SIGTERM drains the worker (lib/runs/start-server-worker.ts) instead of exiting at once
const env = { ...process.env, DATABASE_URL: database.url, SKILLYARD_ROOT: root, PORT: port, NEXT_MANUAL_SIG_HANDLE: '1' };

if (!dev && production && !asked('SKILLYARD_BUILD')) {
  if (!fs.existsSync(path.join(root, '.next', 'BUILD_ID'))) {
    console.error('[skillyard] production mode serves an existing build: run `npm run build` first (or set SKILLYARD_BUILD=1).');
    await database.stop();
    process.exit(1);
  }
} else if (!dev && !buildIsCurrent()) {
  log('building the app (next build); later starts reuse the build until the sources change');
  const build = spawnSync(process.execPath, [nextBin, 'build'], { stdio: 'inherit', env });
  if (build.status !== 0) {
    await database.stop();
    process.exit(build.status ?? 1);
  }
  // as `npm run build` does (scripts/compile-hints.ts); without them the app only starts slower
  try {
    addCompileHints(path.join(root, '.next'));
  } catch (err) {
    log(`the build's compile hints were not added (${err instanceof Error ? err.message : String(err)}); serving without them`);
  }
}

log(`database ready in ${Date.now() - startedAt} ms; serving http://localhost:${port}`);
const server = spawn(process.execPath, [nextBin, dev ? 'dev' : 'start', '--port', port], { stdio: 'inherit', env });

let stopping = false;
async function shutdown(code: number) {
  if (stopping) return;
  stopping = true;
  if (server.exitCode === null) {
    server.kill('SIGTERM');
    // the server drains its runs first (SKILLYARD_DRAIN_SECONDS); one that never exits is killed
    const graceMs = (setting('SKILLYARD_DRAIN_SECONDS') + 15) * 1000;
    const kill = setTimeout(() => server.kill('SIGKILL'), graceMs);
    await new Promise((resolve) => server.once('exit', resolve));
    clearTimeout(kill);
  }
  await database.stop();
  if (database.embedded) log('embedded Postgres stopped');
  process.exit(code);
}
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));
server.on('exit', (code) => void shutdown(code ?? 0));
