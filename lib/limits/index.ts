// lib/limits: the budgets every floor above shares (routes, server actions, sign-in, the
// front door): the HTTP limits from the configuration, rate-limit buckets in Postgres, and
// the server actions' share of the API's budget.
import 'server-only';
export { limitActionCall } from './action-rate-limit';
export { consumeRateLimitExact } from './exact-rate-limit';
export { httpLimits, PAGE_POST_COST, type HttpLimits } from './http-limits';
export { consumeRateLimit, FLUSH_MS, flushRateLimits, overLimitForMs, rateLimitHeaders, resetRateLimitMemoryForTests, type RateDecision } from './rate-limit';
