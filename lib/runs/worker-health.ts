// What /api/health says about this process's run worker: its load (runs executing and
// waiting for input) and, through lib/log's failure registry, whether its heartbeat,
// its stale-run check and the event bus's notifications are getting through (a failure
// is logged with context and listed until the next success).
import 'server-only';
import { reportFailure, reportRecovery, type LogFields } from '../log';

export const RUN_COMPONENTS = {
  heartbeat: 'runs.heartbeat',
  staleCheck: 'runs.stale-check',
  notify: 'runs.notify',
  listen: 'runs.listen',
} as const;

type Component = keyof typeof RUN_COMPONENTS;

type WorkerState = { id: string; concurrency: number; executing: () => number; waiting: () => number; lastHeartbeatAt: string | null; draining?: boolean };

const holder = globalThis as unknown as { skillyardRunWorkerState?: WorkerState | null; skillyardRunFailing?: Set<Component>; skillyardDraining?: boolean };
const failing = (holder.skillyardRunFailing ??= new Set<Component>());

export const workerHealth = {
  started(worker: Omit<WorkerState, 'lastHeartbeatAt'>) {
    holder.skillyardRunWorkerState = { ...worker, lastHeartbeatAt: null };
  },
  /** the worker stops claiming (SIGTERM): this process is not ready for new work any more */
  draining(id: string) {
    holder.skillyardDraining = true;
    if (holder.skillyardRunWorkerState?.id === id) holder.skillyardRunWorkerState.draining = true;
  },
  stopped(id: string) {
    if (holder.skillyardRunWorkerState?.id === id) holder.skillyardRunWorkerState = null;
  },
  /** a failure of `component`: logged with `fields` and listed by /api/health */
  failed(component: Component, err: unknown, fields: LogFields = {}) {
    failing.add(component);
    reportFailure(RUN_COMPONENTS[component], err, fields);
  },
  /** `component` worked: clears its failure */
  ok(component: Component) {
    if (component === 'heartbeat' && holder.skillyardRunWorkerState) holder.skillyardRunWorkerState.lastHeartbeatAt = new Date().toISOString();
    if (!failing.delete(component)) return;
    reportRecovery(RUN_COMPONENTS[component]);
  },
};

export type RunWorkerHealth = {
  id: string;
  concurrency: number;
  executing: number;
  waitingForInput: number;
  lastHeartbeatAt: string | null;
  draining: boolean;
} | null;

/** True once this process began shutting down (a draining worker, or the web server told to stop). */
export function processDraining(): boolean {
  return holder.skillyardDraining === true;
}

export function markProcessDraining(): void {
  holder.skillyardDraining = true;
}

/** This process's worker (null when it runs none: SKILLYARD_WORKER=0). */
export function runWorkerHealth(): RunWorkerHealth {
  const w = holder.skillyardRunWorkerState;
  if (!w) return null;
  return { id: w.id, concurrency: w.concurrency, executing: w.executing(), waitingForInput: w.waiting(), lastHeartbeatAt: w.lastHeartbeatAt, draining: w.draining === true };
}
