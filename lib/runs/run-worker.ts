// The Postgres-backed job queue's worker: claims queued runs fairly between principals
// (run-queue.ts; several app instances can share the work), executes up to
// `concurrency` at once (a run waiting for a person's turn gives its slot back), keeps
// a heartbeat on its claims, and fails runs whose worker vanished. Runs in the web
// server's process by default (instrumentation.ts). Every failure of its own is logged
// (lib/log) and shows in /api/health (worker-health.ts).
import 'server-only';
import crypto from 'node:crypto';
import type { ServerContext } from '../server';
import { executeRun } from './execute-run';
import { runEventBus } from './run-event-bus';
import { RunError } from './run-errors';
import { runLimits } from './run-limits';
import { claimNextRun, failClaimedRun, failStaleRuns, renewClaims } from './run-queue';
import { RunSlots } from './run-slots';
import { errorContext, runsLog } from './runs-log';
import { workerHealth } from './worker-health';

export type RunWorkerOptions = {
  /** runs executing at once (waiting runs excluded); default SKILLYARD_RUN_CONCURRENCY */
  concurrency?: number;
  heartbeatMs?: number;
  /** a run whose claim was not renewed for this long is failed as `run/worker-lost` */
  staleAfterSeconds?: number;
  pollMs?: number;
  /** default SKILLYARD_RUN_INPUT_TIMEOUT_SECONDS */
  inputTimeoutMs?: number;
};

export type RunWorker = {
  id: string;
  stop(): Promise<void>;
  /** runs this worker holds (executing or waiting for input) */
  active(): number;
  /** runs holding an execution slot */
  executing(): number;
  waitingForInput(): number;
  /** runs the heartbeat once now (tests) */
  heartbeat(): Promise<void>;
};

export function startRunWorker(server: ServerContext, opts: RunWorkerOptions = {}): RunWorker {
  const { db } = server;
  const workerId = `${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
  const limits = runLimits();
  const concurrency = opts.concurrency ?? limits.concurrency;
  const heartbeatMs = opts.heartbeatMs ?? 10_000;
  const staleAfterSeconds = opts.staleAfterSeconds ?? 45;
  const inputTimeoutMs = opts.inputTimeoutMs ?? limits.inputTimeoutMs;
  const running = new Map<string, AbortController>();
  const waiting = new Set<string>();
  const finished = new Set<Promise<void>>();
  let stopped = false;
  let claiming = false;
  let again = false;
  const slots = new RunSlots(concurrency, () => void fill());

  async function fill() {
    if (stopped) return;
    if (claiming) {
      again = true;
      return;
    }
    claiming = true;
    try {
      do {
        again = false;
        while (!stopped) {
          const slot = slots.tryTake();
          if (!slot) break;
          let run;
          try {
            run = await claimNextRun(db, workerId);
          } finally {
            if (!run) slot.unused();
          }
          if (!run) break;
          const claimed = run;
          const controller = new AbortController();
          running.set(claimed.id, controller);
          const offControl = runEventBus().onControl(claimed.id, (c) => c.kind === 'cancel' && controller.abort());
          const done = executeRun(server, claimed, {
            workerId,
            signal: controller.signal,
            slot,
            inputTimeoutMs,
            onWaiting: (w) => (w ? waiting.add(claimed.id) : waiting.delete(claimed.id)),
          })
            .catch(async (err) => {
              // the executor died without recording an end: the run must not stay running
              runsLog.error('run crashed', { runId: claimed.id, workerId, ...errorContext(err) });
              const error = { code: 'run/crashed', message: 'The run stopped because of an internal error.' };
              await failClaimedRun(db, claimed.id, workerId, error).catch((err2) =>
                runsLog.error('run crash not recorded', { runId: claimed.id, workerId, ...errorContext(err2) }),
              );
            })
            .finally(() => {
              offControl();
              running.delete(claimed.id);
              waiting.delete(claimed.id);
              finished.delete(done);
              slot.end();
            });
          finished.add(done);
        }
      } while (again && !stopped);
    } catch (err) {
      if (!stopped) runsLog.error('claiming failed', { workerId, ...errorContext(err) });
    } finally {
      claiming = false;
    }
  }

  async function heartbeat() {
    try {
      const lost = await renewClaims(db, workerId, [...running.keys()]);
      workerHealth.ok('heartbeat');
      for (const id of lost) {
        // another worker failed it after a missed heartbeat, or it ended elsewhere: stop
        // here without touching its status or trace
        runsLog.warn('claim lost', { runId: id, workerId });
        running.get(id)?.abort(new RunError('run/lock-lost', 'Another worker took this run over.'));
      }
    } catch (err) {
      workerHealth.failed('heartbeat', err, { workerId, running: running.size });
    }
    try {
      const failed = await failStaleRuns(db, staleAfterSeconds);
      workerHealth.ok('staleCheck');
      for (const id of failed) runsLog.warn('stale run failed', { runId: id, workerId, staleAfterSeconds });
    } catch (err) {
      workerHealth.failed('staleCheck', err, { workerId });
    }
  }

  workerHealth.started({ id: workerId, concurrency, executing: () => running.size - waiting.size, waiting: () => waiting.size });
  const offQueued = runEventBus().onQueued(() => void fill());
  const poll = setInterval(() => void fill(), opts.pollMs ?? 2_000);
  const beat = setInterval(() => void heartbeat(), heartbeatMs);
  poll.unref();
  beat.unref();
  void heartbeat();
  void fill();

  return {
    id: workerId,
    active: () => running.size,
    executing: () => running.size - waiting.size,
    waitingForInput: () => waiting.size,
    heartbeat,
    async stop() {
      stopped = true;
      offQueued();
      clearInterval(poll);
      clearInterval(beat);
      for (const c of running.values()) c.abort();
      await Promise.allSettled([...finished]);
      workerHealth.stopped(workerId);
    },
  };
}
