// lib/metrics: the process's Prometheus metrics (docs/deploy.md lists them). Imports
// nothing of ours, so any library may count; gauges read from the database or the
// sandbox are registered by lib/server, which owns those.
export { collectProcessMetrics, eventStreams, httpDuration, httpRequests, rateLimitRefusals, renderMetrics, scrapedGauge, sseFanout } from './registry';
export { routeLabel } from './route-label';
