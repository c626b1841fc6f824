// The process's Prometheus metrics (prom-client). prom-client is loaded outside the
// server bundle (next.config.ts), so its default registry is one per process; a metric
// is created once and found again by name when another route bundle loads this module.
import client from 'prom-client';

type Labelled<L extends string> = { name: string; help: string; labelNames?: readonly L[] };

function counter<L extends string>(opts: Labelled<L>): client.Counter<L> {
  return (client.register.getSingleMetric(opts.name) as client.Counter<L> | undefined) ?? new client.Counter<L>(opts);
}

function histogram<L extends string>(opts: Labelled<L> & { buckets: number[] }): client.Histogram<L> {
  return (client.register.getSingleMetric(opts.name) as client.Histogram<L> | undefined) ?? new client.Histogram<L>(opts);
}

function gauge(opts: { name: string; help: string }): client.Gauge {
  return (client.register.getSingleMetric(opts.name) as client.Gauge | undefined) ?? new client.Gauge(opts);
}

/** Gauges whose value is read when Prometheus scrapes (collect), not kept up to date. */
export function scrapedGauge<L extends string>(opts: Labelled<L> & { collect(this: client.Gauge<L>): void | Promise<void> }): client.Gauge<L> {
  const found = client.register.getSingleMetric(opts.name) as client.Gauge<L> | undefined;
  if (found) return found;
  return new client.Gauge<L>(opts);
}

export const httpRequests = counter({
  name: 'skillyard_http_requests_total',
  help: 'API requests answered, by method, route and status',
  labelNames: ['method', 'route', 'status'] as const,
});

export const httpDuration = histogram({
  name: 'skillyard_http_request_duration_seconds',
  help: 'Time to the response head of API requests, by method and route',
  labelNames: ['method', 'route'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
});

export const rateLimitRefusals = counter({
  name: 'skillyard_rate_limit_refusals_total',
  help: 'Requests refused by a rate limit or a cap on requests in progress, by kind',
  labelNames: ['kind'] as const,
});

export const eventStreams = gauge({
  name: 'skillyard_sse_clients',
  help: "Clients following a run's live trace (server-sent events) on this instance",
});

export const sseFanout = histogram({
  name: 'skillyard_sse_fanout_seconds',
  help: "Time from a run event's creation to its batch being written to every viewer of the run on this instance",
  buckets: [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.25, 0.5, 1, 2.5],
});

let defaultsOn = false;
/** Node's own figures (memory, event-loop lag, handles), once per process. */
export function collectProcessMetrics(): void {
  if (defaultsOn || client.register.getSingleMetric('skillyard_process_cpu_user_seconds_total')) return;
  defaultsOn = true;
  client.collectDefaultMetrics({ prefix: 'skillyard_' });
}

export async function renderMetrics(): Promise<{ body: string; contentType: string }> {
  return { body: await client.register.metrics(), contentType: client.register.contentType };
}
