// HTTP plumbing shared by the OpenAI-compatible and Anthropic providers: one POST with
// classified failures, bounded retries with backoff that honour `retry-after`, and
// redaction so that no API key ever reaches an error message or event.

import { AgentError, isAbortError } from '../errors';
import type { HttpProviderOptions, ModelProvider, ModelRequest, ModelTurn, RetryInfo, RetryOptions } from './types';

export const DEFAULT_RETRY: Required<RetryOptions> = { maxAttempts: 4, baseMs: 500, capMs: 30_000 };

export class ProviderHttpError extends AgentError {
  /** server-requested wait, from `retry-after` */
  readonly retryAfterMs: number | null;
  constructor(code: 'provider/http' | 'provider/rate-limited', message: string, opts: { status: number; retryable: boolean; retryAfterMs: number | null }) {
    super(code, message, { providerStatus: opts.status, retryable: opts.retryable });
    this.retryAfterMs = opts.retryAfterMs;
  }
}

/** `retry-after` is either delta-seconds or an HTTP date (RFC 9110 10.2.3). */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | null {
  if (value == null) return null;
  const v = value.trim();
  if (v === '') return null;
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const at = Date.parse(v);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now);
}

export function backoffDelay(attempt: number, retry: Required<RetryOptions>, random: () => number = Math.random): number {
  const exp = Math.min(retry.capMs, retry.baseMs * 2 ** Math.max(0, attempt - 1));
  // jitter keeps many clients from retrying in lockstep
  return Math.min(retry.capMs, Math.round(exp * (0.8 + 0.4 * random())));
}

export function redact(text: string, secrets: Array<string | null | undefined>): string {
  let out = text;
  for (const s of secrets) if (s && s.length >= 4) out = out.split(s).join('[redacted]');
  return out;
}

/** Waits `ms`, or rejects with `abortError()` as soon as `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal, abortError: () => Error = () => new AgentError('provider/aborted', 'request cancelled')): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(abortError());
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(abortError());
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

const RETRYABLE_STATUS = new Set([408, 409, 425, 429, 500, 502, 503, 504, 529]);

/** POST JSON; resolves with an ok Response (body unread), throws a classified AgentError otherwise. */
export async function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string>,
  signal: AbortSignal,
  secrets: Array<string | null | undefined>,
  fetchImpl: typeof fetch = fetch,
): Promise<Response> {
  let res: Response;
  try {
    res = await fetchImpl(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream, application/json', ...headers },
      body: JSON.stringify(body),
      signal,
    });
  } catch (err) {
    if (signal.aborted || isAbortError(err)) throw new AgentError('provider/aborted', 'request cancelled');
    const cause = err instanceof Error && err.cause instanceof Error ? `: ${err.cause.message}` : '';
    throw new AgentError('provider/network', redact(`cannot reach ${safeUrl(url)}${cause}`, secrets), { retryable: true });
  }
  if (res.ok) return res;
  let text = '';
  try {
    text = await res.text();
  } catch {
    /* body lost: the status still says enough */
  }
  const detail = redact(extractErrorMessage(text), secrets).slice(0, 500);
  const retryAfterMs = parseRetryAfter(res.headers.get('retry-after'));
  const code = res.status === 429 ? 'provider/rate-limited' : 'provider/http';
  throw new ProviderHttpError(code, `${safeUrl(url)} answered ${res.status}${detail ? `: ${detail}` : ''}`, {
    status: res.status,
    retryable: RETRYABLE_STATUS.has(res.status),
    retryAfterMs,
  });
}

function extractErrorMessage(body: string): string {
  try {
    const j = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown };
    if (typeof j.error === 'string') return j.error;
    if (j.error && typeof j.error.message === 'string') return j.error.message;
    if (typeof j.message === 'string') return j.message;
  } catch {
    /* not JSON */
  }
  return body.trim();
}

/** Drops credentials and query strings from a URL before it goes into a message. */
export function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '(invalid url)';
  }
}

/**
 * Runs `attempt` until it succeeds, a non-retryable error occurs, or the attempts run out.
 * `partial()` tells whether the failed attempt had already streamed output.
 */
export async function withRetries<T>(
  attempt: (n: number) => Promise<T>,
  o: {
    retry?: RetryOptions;
    signal: AbortSignal;
    sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
    onRetry?: (info: RetryInfo) => void | Promise<void>;
    partial?: () => boolean;
  },
): Promise<T> {
  const retry = { ...DEFAULT_RETRY, ...o.retry };
  const wait = o.sleep ?? sleep;
  for (let n = 1; ; n++) {
    try {
      return await attempt(n);
    } catch (err) {
      if (o.signal.aborted) throw new AgentError('provider/aborted', 'request cancelled');
      const retryable = err instanceof AgentError && err.retryable;
      if (!retryable || n >= retry.maxAttempts) {
        if (retryable && err instanceof AgentError) {
          throw new AgentError(err.code, `${err.message} (gave up after ${n} attempts)`, { providerStatus: err.providerStatus, cause: err });
        }
        throw err;
      }
      const hinted = err instanceof ProviderHttpError ? err.retryAfterMs : null;
      const delayMs = hinted != null ? Math.min(retry.capMs, hinted) : backoffDelay(n, retry);
      await o.onRetry?.({
        attempt: n,
        delayMs,
        reason: (err as AgentError).message,
        status: (err as AgentError).providerStatus,
        partial: o.partial?.() ?? false,
      });
      await wait(delayMs, o.signal);
    }
  }
}

/**
 * A provider whose `once` makes one streamed request; failed attempts are retried
 * (429, 5xx, dropped connections) unless text already streamed out (`state.streamedAny`).
 */
export function retryingProvider(name: string, opts: HttpProviderOptions, once: (req: ModelRequest, state: { streamedAny: boolean }) => Promise<ModelTurn>): ModelProvider {
  return {
    name,
    model: opts.model,
    complete(req) {
      const state = { streamedAny: false };
      return withRetries(
        () => {
          state.streamedAny = false;
          return once(req, state);
        },
        { retry: opts.retry, signal: req.signal, sleep: opts.sleep, onRetry: req.onRetry, partial: () => state.streamedAny },
      );
    },
  };
}
