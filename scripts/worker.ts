// `npm run worker`: a run worker without the web server. It claims queued runs from the
// database every web instance writes to (DATABASE_URL), executes them, and on SIGTERM or
// SIGINT drains: claims nothing more, lets its runs finish for SKILLYARD_DRAIN_SECONDS,
// hands back (or fails, when their tools had acted) what is left, then exits.
// Web instances that should not execute runs themselves start with SKILLYARD_WORKER=0.
import { assertProductionSettings } from '../lib/server/production-settings.ts';
import { serverContext } from '../lib/server/index.ts';
import { startRunWorker } from '../lib/runs/run-worker.ts';
import { connectRunEvents, drainOnSignals } from '../lib/runs/start-server-worker.ts';
import { runsLog } from '../lib/runs/runs-log.ts';
import { startEvidenceWorker } from '../lib/evidence/index.ts';

const HELP = `Usage: npm run worker

Environment:
  DATABASE_URL               the Postgres the web instances use (required)
  DATABASE_DIRECT_URL        a direct (unpooled) URL for LISTEN, when DATABASE_URL is a pooler
  SKILLYARD_RUN_CONCURRENCY  runs executed at once (default 16)
  SKILLYARD_DRAIN_SECONDS    on SIGTERM, how long runs may finish before they are handed back (default 25)`;

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log(HELP);
  process.exit(0);
}
const problems = assertProductionSettings(process.env, { web: false });
if (!process.env.DATABASE_URL) problems.unshift('DATABASE_URL is not set: a worker needs the database the web instances use.');
if (problems.length) {
  for (const p of problems) console.error(`[skillyard worker] ${p}`);
  process.exit(1);
}
await connectRunEvents(process.env.DATABASE_URL!);
const worker = startRunWorker(serverContext());
startEvidenceWorker(serverContext());
drainOnSignals(() => worker);
runsLog.info('worker started', { workerId: worker.id, pid: process.pid });
