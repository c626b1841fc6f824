// The one entry point of every /api route (in the spirit of dub's withWorkspace): give the
// request an id, refuse NUL in path and query, identify the caller (API token, session,
// signed anonymous cookie), rate-limit per user (its tokens and sessions together) or
// address (in memory, shared through Postgres in batches: rate-limit.ts), check the
// API token scope, read the JSON body within the byte and depth limits, act, and map any
// failure through lib/errors.ts to `{error: {code, message}}` with the table's status.
import 'server-only';
import crypto from 'node:crypto';
import { NextResponse } from 'next/server';
import type { z } from 'zod';
import { db } from '../db';
import type { ApiTokenScope } from '../auth';
import { AppError, errorBody, mapError, type MappedError } from '../errors';
import { log, serializeError, withRequestId } from '../log';
import { httpDuration, httpRequests, rateLimitRefusals, routeLabel } from '../metrics';
import { anonymousCookieHeader } from './anonymous-id';
import { frontDoorState, rememberCredentialKey, tooManyStreams } from './front-door';
import { httpLimits, consumeRateLimit, rateLimitHeaders } from '../limits';
import { identifyCaller, type Caller } from './identify-caller';
import { readJsonBody } from './read-json-body';
import { anonymousKey, clientIp, isTrustedPublishToken, rateKeyOf, requireScope, userIdOf, type Principal } from '../principal';

export type RouteContext<P> = { params: Promise<P> };

export type ApiContext<P, B> = {
  req: Request;
  params: P;
  body: B;
  principal: Principal;
  /** the principal's user, null for anonymous visitors */
  userId: string | null;
  caller: Caller;
  requestId: string;
  /**
   * For `concurrency: 'stream'` or 'response': the handler ends the request's hold itself,
   * calling the function returned (once is enough; later calls do nothing) when its body
   * ends, fails or is cancelled. Its body is then sent as it is, without the wrapper that
   * otherwise watches it (one stream less per event stream: a thousand viewers of a run).
   */
  takeHold(): () => void;
};

export type ApiOptions<B> = {
  /** API token scope the route needs (sessions and anonymous visitors have no scopes to check) */
  scope?: ApiTokenScope;
  /** schema of the JSON body; without it the body is not read */
  body?: z.ZodType<B>;
  /** byte limit of this route's body (default SKILLYARD_MAX_BODY_BYTES) */
  maxBodyBytes?: number;
  /** rate-limit points this request costs (default 1); false: not rate limited (health) */
  rateLimit?: { cost: number } | false;
  /**
   * false: requests that count against no cap (MCP's DELETE). 'stream': long-lived requests
   * (event streams) that count, until their body ends, against the per-caller cap of open
   * streams instead of the cap of requests in progress. 'response': the request counts until its response body has been sent
   * (or cancelled), for answers that stream while the work runs (MCP's POST, whose SSE
   * response is returned before the tool call finishes). Default: until the handler returns.
   */
  concurrency?: false | 'response' | 'stream';
  /** the route accepts a trusted publisher's short-lived token (the publish route; it checks the token's skill) */
  trustedPublish?: boolean;
  /** the error answer of a protocol with its own envelope (MCP's JSON-RPC); default `{error: {code, message}}` */
  formatError?: (mapped: MappedError, requestId: string) => Response;
};

const REQUEST_ID = /^[A-Za-z0-9_-]{8,64}$/;

/** The id proxy.ts gave the request (or a new one): in logs, error bodies and X-Request-Id. */
export function requestIdFrom(given: string | null | undefined): string {
  return given && REQUEST_ID.test(given) ? given : crypto.randomUUID();
}

function refuseNul(req: Request, params: unknown): void {
  const url = new URL(req.url);
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    throw new AppError('input/invalid', 'The path is not valid percent-encoding.');
  }
  const values = Object.values((params ?? {}) as Record<string, unknown>).flat();
  if (path.includes('\0') || values.some((v) => String(v).includes('\0'))) {
    throw new AppError('input/nul-byte', 'The path holds a NUL character (%00).');
  }
  for (const [k, v] of url.searchParams) {
    if (k.includes('\0') || v.includes('\0')) throw new AppError('input/nul-byte', 'The query holds a NUL character (%00).');
  }
}

function withHeaders(res: Response, headers: Record<string, string>, cookie: string | null): Response {
  try {
    for (const [k, v] of Object.entries(headers)) res.headers.set(k, v);
    if (cookie) res.headers.append('Set-Cookie', cookie);
    return res;
  } catch {
    // immutable headers (a fetched Response): copy
    const copy = new Response(res.body, res);
    for (const [k, v] of Object.entries(headers)) copy.headers.set(k, v);
    if (cookie) copy.headers.append('Set-Cookie', cookie);
    return copy;
  }
}

/** The answer for any thrown value: the table's status, and a request id for the unexpected. */
export function errorResponse(
  err: unknown,
  requestId: string,
  where: string,
  headers: Record<string, string> = {},
  format?: (mapped: MappedError, requestId: string) => Response,
): Response {
  const mapped = mapError(err);
  if (!mapped.expected) log.error('unexpected error', { requestId, where, err: serializeError(err) });
  const res = format ? format(mapped, requestId) : NextResponse.json(errorBody(mapped, requestId), { status: mapped.status });
  if (mapped.status === 401) headers = { ...headers, 'WWW-Authenticate': 'Bearer' };
  // back-pressure (sandbox/queue-full) says when to come back
  const retryAfterMs = (err as { details?: { retryAfterMs?: unknown } } | null)?.details?.retryAfterMs;
  if (typeof retryAfterMs === 'number' && !headers['Retry-After']) headers = { ...headers, 'Retry-After': String(Math.max(1, Math.ceil(retryAfterMs / 1000))) };
  return withHeaders(res, { ...headers, 'X-Request-Id': requestId }, null);
}

async function limit(key: string, authenticated: boolean, cost: number, headers: Record<string, string>): Promise<void> {
  const l = httpLimits();
  const decision = await consumeRateLimit(db(), key, {
    limit: authenticated ? l.rateAuthenticated : l.rateAnonymous,
    windowMs: l.rateWindowMs,
    cost,
  });
  Object.assign(headers, rateLimitHeaders(decision, l.rateWindowMs));
  if (!decision.allowed) {
    throw new AppError('rate/limited', `Too many requests; retry in ${Math.max(1, Math.ceil(decision.resetMs / 1000))} s.`);
  }
}

/** The same response, whose body calls `release` once when it ends, fails or is cancelled. */
function releaseWhenBodyEnds(res: Response, release: () => void): Response {
  if (!res.body) {
    release();
    return res;
  }
  const reader = res.body.getReader();
  let released = false;
  const once = () => {
    if (!released) {
      released = true;
      release();
    }
  };
  let outer!: ReadableStreamDefaultController<Uint8Array>;
  // the inner body failing while nobody reads (a download ended for a stalled client) ends
  // this one at once, so the response is torn down and the request released
  reader.closed.catch((err: unknown) => {
    once();
    try {
      outer.error(err);
    } catch {
      // already closed or errored
    }
  });
  // highWaterMark 0: nothing is read ahead of the client (back-pressure reaches the source)
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        outer = controller;
      },
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) {
            once();
            controller.close();
          } else controller.enqueue(value);
        } catch (err) {
          once();
          controller.error(err);
        }
      },
      cancel(reason) {
        once();
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
}

// requests in progress per rate-limit key in this process: a caller with hundreds of
// parallel requests is refused at once instead of filling the sandbox queue for everyone
// (shared with the front door, which refuses such a caller before Next.js routes it)
const inFlight = frontDoorState().inFlight;
// event streams open per key: one caller holding hundreds open would pin the server's
// memory and event loop (a 40-stream flood made /api/health unreachable for 35 s)
const streams = frontDoorState().streams;

function releaseIn(counts: Map<string, number>, key: string): void {
  const left = (counts.get(key) ?? 1) - 1;
  if (left <= 0) counts.delete(key);
  else counts.set(key, left);
}

/** Counts the answer by route and status, and its time to the response head. */
function measured<P>(serve: (req: Request, route: RouteContext<P>) => Promise<Response>) {
  return async (req: Request, route: RouteContext<P>): Promise<Response> => {
    const started = performance.now();
    const res = await serve(req, route);
    const labels = { method: req.method, route: routeLabel(new URL(req.url).pathname) };
    httpRequests.inc({ ...labels, status: String(res.status) });
    httpDuration.observe(labels, (performance.now() - started) / 1000);
    if (res.status === 429) rateLimitRefusals.inc({ kind: 'api' });
    return res;
  };
}

export function withApi<P = Record<string, never>, B = undefined>(
  options: ApiOptions<B>,
  handler: (ctx: ApiContext<P, B>) => Promise<Response>,
): (req: Request, route: RouteContext<P>) => Promise<Response> {
  return measured<P>(async (req, route) => {
    const requestId = requestIdFrom(req.headers.get('x-request-id'));
    const where = `${req.method} ${new URL(req.url).pathname}`;
    const limits = httpLimits();
    const headers: Record<string, string> = { 'X-Request-Id': requestId };
    let cookie: string | null = null;
    let held: string | null = null;
    let taken: (() => void) | null = null;
    const counts = options.concurrency === 'stream' ? streams : inFlight;
    const release = (key: string) => releaseIn(counts, key);
    try {
      const params = ((await route?.params) ?? {}) as P;
      refuseNul(req, params);
      let caller: Caller;
      try {
        caller = await identifyCaller(db(), req, limits.trustedProxies);
      } catch (err) {
        // a wrong token still costs its address a point, so guessing tokens is rate limited too
        if (options.rateLimit !== false) await limit(anonymousKey(clientIp(req, limits.trustedProxies)), false, 1, headers);
        throw err;
      }
      if (caller.newAnonymousCookie) {
        const proto = req.headers.get('x-forwarded-proto') ?? new URL(req.url).protocol;
        cookie = anonymousCookieHeader(caller.newAnonymousCookie, proto.startsWith('https'));
      }
      const { key, authenticated } = rateKeyOf(caller.principal, caller.ip);
      if (caller.principal.kind !== 'anonymous') rememberCredentialKey(req, key);
      if (options.rateLimit !== false) await limit(key, authenticated, options.rateLimit?.cost ?? 1, headers);
      if (options.concurrency === 'stream' && options.rateLimit !== false) {
        const now = streams.get(key) ?? 0;
        if (now >= limits.maxStreamsPerCaller) {
          const refusal = tooManyStreams(limits.maxStreamsPerCaller);
          headers['Retry-After'] = String(refusal.retryAfterS);
          throw new AppError('rate/limited', refusal.message);
        }
        streams.set(key, now + 1);
        held = key;
      } else if (options.concurrency !== false && options.rateLimit !== false) {
        const now = inFlight.get(key) ?? 0;
        if (now >= limits.maxConcurrentPerCaller) {
          headers['Retry-After'] = '1';
          throw new AppError('rate/limited', `Too many requests in progress at once (at most ${limits.maxConcurrentPerCaller}); retry when one has finished.`);
        }
        inFlight.set(key, now + 1);
        held = key;
      }
      // a trusted publisher's token publishes (on the routes that take it) and does nothing else
      if (isTrustedPublishToken(caller.principal)) {
        if (!options.trustedPublish) throw new AppError('auth/forbidden', 'A trusted publishing token can only publish its skill.');
      } else if (options.scope) requireScope(caller.principal, options.scope);
      let body = undefined as B;
      if (options.body) {
        const raw = await readJsonBody(req, { maxBytes: options.maxBodyBytes ?? limits.maxBodyBytes, maxDepth: limits.maxJsonDepth });
        body = options.body.parse(raw);
      }
      const takeHold = () => {
        if (!taken) {
          const key = held;
          let done = false;
          taken = () => {
            if (done || key === null) return;
            done = true;
            release(key);
          };
        }
        return taken;
      };
      const ctx = { req, params, body, principal: caller.principal, userId: userIdOf(caller.principal), caller, requestId, takeHold };
      // every log line written while serving the request names it
      let res = await withRequestId(requestId, () => handler(ctx));
      if (held !== null && taken && (options.concurrency === 'response' || options.concurrency === 'stream')) {
        held = null; // the handler's body releases it
      } else if (held !== null && (options.concurrency === 'response' || options.concurrency === 'stream')) {
        const key = held;
        held = null; // released by the body instead
        res = releaseWhenBodyEnds(res, () => release(key));
      }
      return withHeaders(res, headers, cookie);
    } catch (err) {
      return withHeaders(errorResponse(err, requestId, where, headers, options.formatError), {}, cookie);
    } finally {
      if (held !== null) (taken ?? release.bind(null, held))();
    }
  });
}
