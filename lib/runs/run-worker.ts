// The Postgres-backed job queue's worker: claims queued runs fairly between principals
// (run-queue.ts; several app instances can share the work), executes up to
// `concurrency` at once (a run waiting for a person's turn gives its slot back), keeps
// a heartbeat on its claims, and fails runs whose worker vanished. Runs in the web
// server's process by default (instrumentation.ts). Every failure of its own is logged
// (lib/log) and shows in /api/health (worker-health.ts).
import 'server-only';
import crypto from 'node:crypto';
import type { RunServer } from './run-server';
import { executeRun, HAND_BACK } from './execute-run';
import { runEventBus } from './run-event-bus';
import { RunError } from './run-errors';
import { runLimits } from './run-limits';
import { claimNextRun, failClaimedRun, failStaleRuns, handBackRuns, renewClaims, retriableRuns } from './run-queue';
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
  /**
   * Graceful stop (SIGTERM): claims nothing more; runs waiting for a person's turn whose
   * tools never acted are handed back to the queue at once; the others may finish within
   * `timeoutMs`, then they are handed back, or failed with `run/worker-stopped` when
   * their tools had acted. Resolves once this worker holds no run.
   */
  drain(timeoutMs: number): Promise<void>;
  draining(): boolean;
};

export function startRunWorker(server: RunServer, opts: RunWorkerOptions = {}): RunWorker {
  const { db } = server;
  const workerId = `${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
  const limits = runLimits();
  const concurrency = opts.concurrency ?? limits.concurrency;
  const heartbeatMs = opts.heartbeatMs ?? limits.heartbeatSeconds * 1000;
  const staleAfterSeconds = opts.staleAfterSeconds ?? limits.staleAfterSeconds;
  const inputTimeoutMs = opts.inputTimeoutMs ?? limits.inputTimeoutMs;
  const running = new Map<string, AbortController>();
  const waiting = new Set<string>();
  const dones = new Map<string, Promise<void>>();
  let stopped = false;
  let draining = false;
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
              dones.delete(claimed.id);
              slot.end();
            });
          dones.set(claimed.id, done);
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
      const { lost, cancelled } = await renewClaims(db, workerId, [...running.keys()]);
      workerHealth.ok('heartbeat');
      // a cancel stored by any instance: its notice may never have reached this process
      for (const id of cancelled) running.get(id)?.abort();
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
      const failed = await failStaleRuns(db, staleAfterSeconds, {
        retried: (id) => runsLog.warn('stale run queued again', { runId: id, workerId, staleAfterSeconds }),
      });
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
    draining: () => draining,
    async drain(timeoutMs: number) {
      if (draining || stopped) return;
      draining = true;
      stopped = true; // claims nothing more; the heartbeat keeps the runs it holds
      offQueued();
      clearInterval(poll);
      workerHealth.draining(workerId);
      // stops the runs' executors (they write no end), then gives them back or fails them
      const handBack = async (ids: string[], failOthers: boolean) => {
        if (ids.length === 0) return;
        for (const id of ids) running.get(id)?.abort(new RunError(HAND_BACK, 'The worker is shutting down.'));
        await Promise.allSettled(ids.map((id) => dones.get(id)));
        const back = await handBackRuns(db, workerId, ids, { maxAttempts: limits.maxAttempts, failOthers }).catch((err) => {
          runsLog.error('handing runs back failed', { workerId, ...errorContext(err) });
          return [];
        });
        for (const id of back) runsLog.info('run handed back to the queue', { runId: id, workerId });
      };
      // a run waiting for a person may wait for minutes: given back now when that is safe
      if (waiting.size) {
        const retriable = await retriableRuns(db, workerId, [...waiting], limits.maxAttempts).catch(() => []);
        await handBack(retriable, false);
      }
      const deadline = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), timeoutMs).unref());
      const all = (async () => {
        while (dones.size) await Promise.allSettled([...dones.values()]);
        return 'done' as const;
      })();
      if ((await Promise.race([all, deadline])) === 'timeout') await handBack([...running.keys()], true);
      clearInterval(beat);
      workerHealth.stopped(workerId);
    },
    async stop() {
      stopped = true;
      offQueued();
      clearInterval(poll);
      clearInterval(beat);
      for (const c of running.values()) c.abort();
      await Promise.allSettled([...dones.values()]);
      workerHealth.stopped(workerId);
    },
  };
}
