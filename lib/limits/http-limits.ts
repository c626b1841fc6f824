// Limits at the HTTP boundary, each with its default and the environment variable that
// sets it (docs/security.md lists them). Read once per process.
import 'server-only';

import { setting } from '../config';

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
  /** how long a refusal waits before it is sent to a caller already past its rate limit (ms; 0: at once) */
  refusalDelayMs: number;
};

/** what a form post (server action) costs from the page budget */
export const PAGE_POST_COST = 10;

let cached: HttpLimits | null = null;

export function httpLimits(): HttpLimits {
  cached ??= {
    maxBodyBytes: setting('SKILLYARD_MAX_BODY_BYTES'),
    maxJsonDepth: setting('SKILLYARD_MAX_JSON_DEPTH'),
    rateWindowMs: setting('SKILLYARD_RATE_WINDOW_SECONDS') * 1000,
    rateAnonymous: setting('SKILLYARD_RATE_LIMIT_ANONYMOUS'),
    rateAuthenticated: setting('SKILLYARD_RATE_LIMIT_AUTHENTICATED'),
    trustedProxies: setting('SKILLYARD_TRUSTED_PROXIES'),
    maxConcurrentPerCaller: setting('SKILLYARD_MAX_CONCURRENT_PER_CALLER'),
    maxStreamsPerCaller: setting('SKILLYARD_MAX_STREAMS_PER_CALLER'),
    ratePages: setting('SKILLYARD_RATE_LIMIT_PAGES'),
    maxConcurrentPagesPerCaller: setting('SKILLYARD_MAX_CONCURRENT_PAGES_PER_CALLER'),
    maxFormParts: setting('SKILLYARD_MAX_FORM_PARTS'),
    refusalDelayMs: setting('SKILLYARD_REFUSAL_DELAY_MS'),
  };
  return cached;
}
