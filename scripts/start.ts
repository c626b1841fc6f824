// `npm start` (production server) and `npm run dev` (Next.js dev server): starts the
// embedded Postgres unless DATABASE_URL is set, migrates, seeds the bundled skills,
// builds when the build is missing or older than the sources, then serves.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { prepareDatabase } from '../lib/server/prepare-database.ts';

const HELP = `Usage: npm start [-- --port N]      production server (builds first when needed)
       npm run dev [-- --port N]    development server with hot reload

Environment:
  DATABASE_URL        use this Postgres instead of the embedded one
  PORT                HTTP port (default 3000)
  SKILLYARD_PG_PORT   port of the embedded Postgres (default 54329)
  SKILLYARD_DATA_DIR  where the embedded Postgres keeps its data (default .data)
  SKILLYARD_SEED=0    do not load the bundled skills from skills/`;

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

const startedAt = Date.now();
let database: Awaited<ReturnType<typeof prepareDatabase>>;
try {
  database = await prepareDatabase({ root, seed: process.env.SKILLYARD_SEED !== '0', log });
} catch (err) {
  console.error(`[skillyard] ${(err as Error).message}`);
  process.exit(1);
}
const env = { ...process.env, DATABASE_URL: database.url, SKILLYARD_ROOT: root, PORT: port };

if (!dev && !buildIsCurrent()) {
  log('building the app (next build); later starts reuse the build until the sources change');
  const build = spawnSync(process.execPath, [nextBin, 'build'], { stdio: 'inherit', env });
  if (build.status !== 0) {
    await database.stop();
    process.exit(build.status ?? 1);
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
    await new Promise((resolve) => server.once('exit', resolve));
  }
  await database.stop();
  if (database.embedded) log('embedded Postgres stopped');
  process.exit(code);
}
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));
server.on('exit', (code) => void shutdown(code ?? 0));
