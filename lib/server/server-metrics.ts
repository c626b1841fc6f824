// Gauges read at scrape time from what the server owns: runs by state and the queue
// (one grouped count in Postgres per scrape), and the sandbox pool's figures. Counters
// kept as things happen (requests, refusals, event streams) live in lib/metrics.
import 'server-only';
import { collectProcessMetrics, scrapedGauge } from '../metrics';
import type { ServerContext } from './server-context';

const RUN_STATES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;

/** Registers the server's gauges once per process; `server` is read at each scrape. */
export function registerServerMetrics(server: () => Pick<ServerContext, 'db' | 'sandboxStats'>): void {
  collectProcessMetrics();
  scrapedGauge({
    name: 'skillyard_runs',
    help: 'Runs by state (queued is the run queue depth)',
    labelNames: ['state'] as const,
    async collect() {
      const rows = await server().db.run.groupBy({ by: ['status'], _count: { _all: true } });
      const counts = new Map(rows.map((r) => [r.status as string, r._count._all]));
      for (const state of RUN_STATES) this.set({ state }, counts.get(state) ?? 0);
    },
  });
  scrapedGauge({
    name: 'skillyard_sandbox_pool',
    help: 'Sandbox pool figures (workers, ready, running, queued, restarts, retried); absent until a tool has run',
    labelNames: ['figure'] as const,
    collect() {
      const stats = server().sandboxStats();
      if (!stats) return;
      for (const figure of ['workers', 'ready', 'running', 'queued', 'restarts', 'retried'] as const) this.set({ figure }, stats[figure]);
    },
  });
}
