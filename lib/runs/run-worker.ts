// The Postgres-backed job queue's worker: claims queued runs with FOR UPDATE SKIP LOCKED
// (so several app instances can share the work), runs up to `concurrency` at once, keeps
// a heartbeat, and fails runs whose worker vanished. Runs in the web server's process by
// default (instrumentation.ts).
import crypto from 'node:crypto';
import type { ServerContext } from '../server';
import type { RunConfig } from './run-config';
import { executeRun } from './execute-run';
import { runEventBus } from './run-event-bus';
import { openRunEventLog } from './run-event-log';

const HEARTBEAT_MS = 10_000;
const STALE_AFTER_SECONDS = 45;
const POLL_MS = 2_000;

export type RunWorker = { stop(): Promise<void>; active(): number };

export function startRunWorker(server: ServerContext, opts: { concurrency?: number } = {}): RunWorker {
  const { db } = server;
  const workerId = `${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
  const concurrency = opts.concurrency ?? Number(process.env.SKILLYARD_RUN_CONCURRENCY ?? 16);
  const running = new Map<string, AbortController>();
  const finished = new Set<Promise<void>>();
  let stopped = false;
  let claiming = false;

  async function claim(): Promise<{ id: string; userId: string | null; config: RunConfig } | null> {
    const rows = await db.$queryRaw<Array<{ id: string; userId: string | null; config: RunConfig }>>`
      UPDATE "Run" SET status = 'running', "lockedBy" = ${workerId}, "lockedAt" = now(),
             "startedAt" = COALESCE("startedAt", now()), attempts = attempts + 1
      WHERE id = (
        SELECT id FROM "Run" WHERE status = 'queued' AND "cancelRequested" = false
        ORDER BY "createdAt" LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING id, "userId", config`;
    return rows[0] ?? null;
  }

  async function failStaleRuns() {
    const stale = await db.$queryRaw<Array<{ id: string }>>`
      UPDATE "Run" SET status = 'failed', "finishedAt" = now(), "lockedBy" = NULL,
             error = '{"code":"run/worker-lost","message":"The worker running this run stopped."}'::jsonb
      WHERE status = 'running' AND "lockedAt" < now() - make_interval(secs => ${STALE_AFTER_SECONDS})
      RETURNING id`;
    for (const { id } of stale) {
      const log = await openRunEventLog(db, id);
      log.append('agent-error', { error: { code: 'run/worker-lost', message: 'The worker running this run stopped.' }, timestamp: Date.now() });
      log.append('run-end', { status: 'failed', timestamp: Date.now() });
      await log.flush();
    }
  }

  async function fill() {
    if (claiming || stopped) return;
    claiming = true;
    try {
      while (!stopped && running.size < concurrency) {
        const run = await claim();
        if (!run) break;
        const controller = new AbortController();
        running.set(run.id, controller);
        const offControl = runEventBus().onControl(run.id, (c) => c.kind === 'cancel' && controller.abort());
        const done = executeRun(server, run, controller.signal)
          .catch((err) => console.error(`[runs] run ${run.id} crashed:`, err))
          .finally(() => {
            offControl();
            running.delete(run.id);
            finished.delete(done);
            void fill();
          });
        finished.add(done);
      }
    } catch (err) {
      if (!stopped) console.error('[runs] claiming failed:', (err as Error).message);
    } finally {
      claiming = false;
    }
  }

  const offQueued = runEventBus().onQueued(() => void fill());
  const poll = setInterval(() => void fill(), POLL_MS);
  const heartbeat = setInterval(() => {
    if (running.size) {
      void db.run
        .updateMany({ where: { id: { in: [...running.keys()] }, lockedBy: workerId }, data: { lockedAt: new Date() } })
        .catch(() => {});
    }
    void failStaleRuns().catch(() => {});
  }, HEARTBEAT_MS);
  poll.unref();
  heartbeat.unref();
  void failStaleRuns().catch(() => {});
  void fill();

  return {
    active: () => running.size,
    async stop() {
      stopped = true;
      offQueued();
      clearInterval(poll);
      clearInterval(heartbeat);
      for (const c of running.values()) c.abort();
      await Promise.allSettled([...finished]);
    },
  };
}
