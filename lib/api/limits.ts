// Limits at the HTTP boundary, each with its default and the environment variable that
// sets it (docs/security.md lists them). Read once per process.
import 'server-only';

function intFromEnv(name: string, fallback: number, min = 1): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  return Number.isInteger(n) && n >= min ? n : fallback;
}

export type HttpLimits = {
  /** largest JSON body a route reads (bytes) */
  maxBodyBytes: number;
  /** deepest nesting of arrays/objects in a JSON body */
  maxJsonDepth: number;
  /** rate-limit window (ms) */
  rateWindowMs: number;
  /** requests per window for one anonymous address */
  rateAnonymous: number;
  /** requests per window for one API token or signed-in user */
  rateAuthenticated: number;
  /** requests one caller (token, user or anonymous address) may have in progress at once, per instance */
  maxConcurrentPerCaller: number;
  /** event streams (a run's trace, its JSON pages, an MCP GET stream) one caller may hold open at once, per instance */
  maxStreamsPerCaller: number;
  /** proxies in front of the server that append to X-Forwarded-For (0: none) */
  trustedProxies: number;
  /** page renders per window for one caller (signed-in user or address); a form post costs PAGE_POST_COST */
  ratePages: number;
  /** page renders and form posts one caller may have in progress at once, per instance */
  maxConcurrentPagesPerCaller: number;
  /** parts a form post (server action) may hold; the publish page gets maxPackageFiles more */
  maxFormParts: number;
};

/** what a form post (server action) costs from the page budget */
export const PAGE_POST_COST = 10;

let cached: HttpLimits | null = null;

export function httpLimits(): HttpLimits {
  cached ??= {
    maxBodyBytes: intFromEnv('SKILLYARD_MAX_BODY_BYTES', 1024 * 1024),
    maxJsonDepth: intFromEnv('SKILLYARD_MAX_JSON_DEPTH', 64),
    rateWindowMs: intFromEnv('SKILLYARD_RATE_WINDOW_SECONDS', 60) * 1000,
    rateAnonymous: intFromEnv('SKILLYARD_RATE_LIMIT_ANONYMOUS', 600),
    rateAuthenticated: intFromEnv('SKILLYARD_RATE_LIMIT_AUTHENTICATED', 1200),
    trustedProxies: intFromEnv('SKILLYARD_TRUSTED_PROXIES', 0, 0),
    maxConcurrentPerCaller: intFromEnv('SKILLYARD_MAX_CONCURRENT_PER_CALLER', 16),
    maxStreamsPerCaller: intFromEnv('SKILLYARD_MAX_STREAMS_PER_CALLER', 8),
    ratePages: intFromEnv('SKILLYARD_RATE_LIMIT_PAGES', 1200),
    maxConcurrentPagesPerCaller: intFromEnv('SKILLYARD_MAX_CONCURRENT_PAGES_PER_CALLER', 16),
    maxFormParts: intFromEnv('SKILLYARD_MAX_FORM_PARTS', 256),
  };
  return cached;
}
