// Called once per server process (instrumentation.ts): live event delivery across
// instances (its LISTEN connection also tells the API token cache of revocations), and
// the in-process run worker unless SKILLYARD_WORKER=0.
import 'server-only';
import { hearApiTokenChanges } from '../auth/api-token-cache';
import { serverContext } from '../server';
import { runEventBus } from './run-event-bus';
import { startRunWorker, type RunWorker } from './run-worker';

const globalForWorker = globalThis as unknown as { skillyardRunWorker?: RunWorker };

export async function startServerWorker(): Promise<void> {
  const url = process.env.DATABASE_URL;
  if (!url || globalForWorker.skillyardRunWorker) return;
  await hearApiTokenChanges(runEventBus());
  await runEventBus().connect(url);
  if (process.env.SKILLYARD_WORKER === '0') return;
  globalForWorker.skillyardRunWorker = startRunWorker(serverContext());
}
