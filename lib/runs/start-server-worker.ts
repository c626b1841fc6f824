// Called once per server process (instrumentation.ts): live event delivery across
// instances (its LISTEN connection also tells the API token cache of revocations), and
// the in-process run worker unless SKILLYARD_WORKER=0. `npm run worker` (scripts/worker.ts)
// starts the same worker without a web server.
import 'server-only';
import { hearApiTokenChanges } from '../auth';
import type { RunServer } from './run-server';
import { runEventBus } from './run-event-bus';
import { startRunWorker, type RunWorker } from './run-worker';
import { startEvidenceWorker, type EvidenceWorker } from '../evidence';
import { markProcessDraining } from './worker-health';
import { errorContext, runsLog } from './runs-log';
import { setting } from '../config';

const globalForWorker = globalThis as unknown as { skillyardRunWorker?: RunWorker; skillyardEvidenceWorker?: EvidenceWorker; skillyardDrainHooked?: boolean };

/** how long a stopping process lets its runs finish before handing them back (SKILLYARD_DRAIN_SECONDS) */
export function drainTimeoutMs(): number {
  return setting('SKILLYARD_DRAIN_SECONDS') * 1000;
}

/** Connects the event bus: LISTEN on DATABASE_DIRECT_URL when set (a pooler cannot LISTEN), NOTIFY on `url`. */
export async function connectRunEvents(url: string): Promise<void> {
  await hearApiTokenChanges(runEventBus());
  await runEventBus().connect(url, setting('DATABASE_DIRECT_URL') || url);
}

/**
 * On SIGTERM or SIGINT: readiness turns false, the worker (if any) drains, then the
 * process exits. Only when asked to (`NEXT_MANUAL_SIG_HANDLE`, set by scripts/start.ts):
 * Next.js's own handler exits at once otherwise.
 */
export function drainOnSignals(getWorker: () => RunWorker | undefined, exit: (code: number) => void = process.exit): void {
  if (globalForWorker.skillyardDrainHooked) return;
  globalForWorker.skillyardDrainHooked = true;
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    markProcessDraining();
    const worker = getWorker();
    runsLog.info('draining', { signal, runs: worker?.active() ?? 0, timeoutMs: drainTimeoutMs() });
    try {
      await worker?.drain(drainTimeoutMs());
      await runEventBus().close();
    } catch (err) {
      runsLog.error('drain failed', errorContext(err));
    }
    runsLog.info('drained; exiting', { signal });
    exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

/** `server`: the process's server context (lib/server), asked for only when the worker starts. */
export async function startServerWorker(server: () => RunServer): Promise<void> {
  if (setting('NEXT_MANUAL_SIG_HANDLE')) drainOnSignals(() => globalForWorker.skillyardRunWorker);
  const url = setting('DATABASE_URL');
  if (!url || globalForWorker.skillyardRunWorker) return;
  await connectRunEvents(url);
  if (!setting('SKILLYARD_WORKER')) return;
  globalForWorker.skillyardRunWorker = startRunWorker(server());
  // publish-time runs of new versions' examples (lib/evidence)
  globalForWorker.skillyardEvidenceWorker ??= startEvidenceWorker(server());
}
