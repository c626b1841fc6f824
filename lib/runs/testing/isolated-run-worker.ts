// An isolated database (isolated-db.ts) with the event bus connected to it, a server
// context and a run worker executing one run at a time: what an integration test of
// whole runs needs; `stop()` takes it all down again.
import type { Db } from '../../db/client';
import { createServerContext, type ServerContext } from '../../server';
import { runEventBus } from '../run-event-bus';
import { startRunWorker, type RunWorker } from '../run-worker';
import { isolatedRunDb } from './isolated-db';

export type IsolatedRunWorker = {
  db: Db;
  url: string;
  server: ServerContext;
  worker: RunWorker;
  /** the run once it has ended (succeeded, failed or cancelled); throws after 45 s */
  waitForEnd(id: string): Promise<Awaited<ReturnType<Db['run']['findUniqueOrThrow']>>>;
  stop(): Promise<void>;
};

export async function startIsolatedRunWorker(): Promise<IsolatedRunWorker> {
  const { db, url, drop } = await isolatedRunDb();
  await runEventBus().connect(url);
  const server = createServerContext({ db });
  const worker = startRunWorker(server, { concurrency: 1 });
  const handle: IsolatedRunWorker = {
    db,
    url,
    server,
    worker,
    async waitForEnd(id) {
      const deadline = Date.now() + 45_000;
      for (;;) {
        const run = await db.run.findUniqueOrThrow({ where: { id } });
        if (['succeeded', 'failed', 'cancelled'].includes(run.status)) return run;
        if (Date.now() > deadline) throw new Error(`run ${id} did not end`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async stop() {
      // a test may have replaced the worker (stopped it and started another)
      await handle.worker.stop();
      await runEventBus().close();
      await server.close();
      await drop();
    },
  };
  return handle;
}
