// The front door: refuses, before Next.js routes a request, an API request whose caller is
// already refused by withApi's own state: past its rate limit (rate-limit.ts), or with
// SKILLYARD_MAX_CONCURRENT_PER_CALLER requests in progress. An attacker that keeps
// hundreds of requests open costs the server one parsed request and a 429 each (tens of
// microseconds) instead of a trip through the router (milliseconds); on one event loop,
// that is what keeps other callers' requests from queueing behind the flood.
//
// It only ever refuses, and only by what withApi itself decided for the same key, so it
// can never let anybody in. A caller's key: an API token or a session cookie is mapped to
// its key by withApi after it verified it (remembered by a hash of the credential, never
// the credential); an unknown credential passes to withApi. Anonymous callers are keyed by
// address exactly as withApi keys them (X-Forwarded-For as Next.js would write it).
import 'server-only';
import crypto from 'node:crypto';
import http from 'node:http';
import { addressBucket, anonymousKey } from '../principal';
import { httpLimits } from '../limits';
import { pinClientAddress } from './pin-client-address';
import { actionBodyVerdict, isPagePath, pathOf } from './action-body-limit';
import { admitPage, type PageRefusal } from './page-guard';
import { overLimitForMs } from '../limits';
import { answerAfterDelay } from './refusal-tarpit';
import { enterPageGate } from './page-render-gate';

type FrontDoorState = {
  /** requests in progress per rate-limit key (withApi counts them) */
  inFlight: Map<string, number>;
  /** event streams open per rate-limit key (withApi's `concurrency: 'stream'` counts them) */
  streams: Map<string, number>;
  /** hash of a verified credential (Authorization header or session cookie) -> its rate-limit key */
  keys: Map<string, string>;
  installed: boolean;
};

const MAX_KEYS = 50_000;
const SESSION_COOKIES = ['__Secure-authjs.session-token', 'authjs.session-token'];

/** One state per process, shared by every bundle that loads this module. */
export function frontDoorState(): FrontDoorState {
  const g = globalThis as unknown as { skillyardFrontDoor?: FrontDoorState };
  const state = (g.skillyardFrontDoor ??= { inFlight: new Map(), streams: new Map(), keys: new Map(), installed: false });
  state.streams ??= new Map(); // a state made by an older bundle of this module
  return state;
}

const credentialHash = (text: string) => crypto.createHash('sha256').update(text).digest('base64url');

/** The credential a request carries (Authorization header, else the session cookie value), if any. */
function credentialOf(headers: { authorization?: string | string[]; cookie?: string | string[] }): string | null {
  const auth = headers.authorization;
  if (typeof auth === 'string' && auth !== '') return `a:${auth.trim()}`;
  const cookie = typeof headers.cookie === 'string' ? headers.cookie : null;
  if (!cookie) return null;
  for (const part of cookie.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && SESSION_COOKIES.includes(part.slice(0, eq).trim())) return `s:${part.slice(eq + 1).trim()}`;
  }
  return null;
}

/** withApi: this request's credential was verified and belongs to `key`. */
export function rememberCredentialKey(req: Request, key: string): void {
  const credential = credentialOf({ authorization: req.headers.get('authorization') ?? undefined, cookie: req.headers.get('cookie') ?? undefined });
  if (!credential) return;
  const { keys } = frontDoorState();
  const hash = credentialHash(credential);
  if (keys.get(hash) === key) return;
  if (keys.size >= MAX_KEYS) keys.clear();
  keys.set(hash, key);
}

const isMcpPath = (path: string) => path === '/api/mcp' || path.startsWith('/api/mcp/');

/** The address withApi would see: X-Forwarded-For as given, else the socket's (what Next.js writes). */
function addressOf(req: http.IncomingMessage, trustedProxies: number): string {
  const xff = req.headers['x-forwarded-for'];
  const given = (Array.isArray(xff) ? xff.join(',') : (xff ?? ''))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const parts = given.length ? given : [req.socket?.remoteAddress ?? 'unknown'];
  const ip = parts[parts.length - Math.max(1, trustedProxies)] ?? parts[0] ?? 'unknown';
  return addressBucket(ip.slice(0, 64));
}

/** Why the request is refused at the door ({retryAfterS, message}), or null to let withApi decide. */
export function frontDoorVerdict(req: http.IncomingMessage, now = Date.now()): { retryAfterS: number; message: string } | null {
  const url = req.url ?? '';
  if (!url.startsWith('/api/') || url.startsWith('/api/health')) return null;
  const limits = httpLimits();
  const credential = credentialOf(req.headers);
  let key: string | undefined;
  if (credential) {
    key = frontDoorState().keys.get(credentialHash(credential));
    if (!key) return null; // not verified yet: withApi decides
  } else key = anonymousKey(addressOf(req, limits.trustedProxies));
  const blockedMs = overLimitForMs(key, now);
  if (blockedMs > 0) {
    const s = Math.max(1, Math.ceil(blockedMs / 1000));
    return { retryAfterS: s, message: `Too many requests; retry in ${s} s.` };
  }
  const path = url.split('?')[0]!;
  // event streams and MCP's GET stream have their own cap (they stay open); MCP's other
  // methods but POST (DELETE) count against neither; a POST (tools/call...) counts as in withApi
  const mcp = isMcpPath(path);
  const stream = path.endsWith('/events') || (mcp && req.method === 'GET');
  if (stream) {
    if ((frontDoorState().streams.get(key) ?? 0) >= limits.maxStreamsPerCaller) return tooManyStreams(limits.maxStreamsPerCaller);
    return null;
  }
  if (mcp && req.method !== 'POST') return null;
  if ((frontDoorState().inFlight.get(key) ?? 0) >= limits.maxConcurrentPerCaller) {
    return { retryAfterS: 1, message: `Too many requests in progress at once (at most ${limits.maxConcurrentPerCaller}); retry when one has finished.` };
  }
  return null;
}

/** The refusal of one event stream too many (front door and withApi say the same). */
export function tooManyStreams(max: number): { retryAfterS: number; message: string } {
  return { retryAfterS: STREAM_RETRY_AFTER_S, message: `Too many event streams open at once (at most ${max}); close one and retry.` };
}
const STREAM_RETRY_AFTER_S = 5;

/** Answers the request with 429 when the door refuses it; true when it did. */
export function refuseAtFrontDoor(req: http.IncomingMessage, res: http.ServerResponse): boolean {
  let verdict: ReturnType<typeof frontDoorVerdict>;
  try {
    verdict = frontDoorVerdict(req);
  } catch {
    return false; // never in the way: withApi decides
  }
  if (!verdict) return false;
  const requestId = crypto.randomUUID();
  // MCP clients read JSON-RPC errors: the same body withApi's MCP routes answer (-32000, retry later)
  const body = isMcpPath((req.url ?? '').split('?')[0]!)
    ? JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: `rate/limited: ${verdict.message}` }, id: null })
    : JSON.stringify({ error: { code: 'rate/limited', message: verdict.message } });
  const answer = () => {
    res.writeHead(429, {
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(body),
      'Retry-After': String(verdict.retryAfterS),
      'X-Request-Id': requestId,
    });
    res.end(body);
  };
  // the door refuses only a caller already past one of its limits (rate, requests in
  // progress, streams): the refusal is held (refusal-tarpit.ts), or a client that comes
  // straight back (a loop at its cap of requests in progress spends no rate-limit points)
  // is refused as fast as the event loop can
  answerAfterDelay(res, answer);
  return true;
}

/** Answers a server action whose body is larger than its page needs (action-body-limit.ts); true when it did. */
export function refuseOversizedAction(req: http.IncomingMessage, res: http.ServerResponse): boolean {
  let verdict: ReturnType<typeof actionBodyVerdict>;
  try {
    verdict = actionBodyVerdict(req);
  } catch {
    return false;
  }
  if (!verdict) return false;
  const body = JSON.stringify({ error: { code: verdict.code, message: verdict.message } });
  res.writeHead(verdict.status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), Connection: 'close' });
  res.end(body);
  return true;
}

/** A page when every render slot is taken and the line of waiting pages is full (page-render-gate.ts). */
const BUSY: PageRefusal = { status: 503, code: 'server/busy', message: 'The server is rendering as many pages as it can; retry in a moment.', retryAfterS: 1 };

/** Answers a page request the page guard refused. */
function answerPageRefusal(res: http.ServerResponse, refusal: PageRefusal): void {
  const body = JSON.stringify({ error: { code: refusal.code, message: refusal.message } });
  const headers: Record<string, string | number> = { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), 'X-Request-Id': crypto.randomUUID() };
  if (refusal.retryAfterS) headers['Retry-After'] = String(refusal.retryAfterS);
  // a form post's body is never read: the connection cannot carry another request
  if (refusal.status !== 429) headers.Connection = 'close';
  const answer = () => {
    res.writeHead(refusal.status, headers);
    res.end(body);
  };
  if (refusal.pastLimit) answerAfterDelay(res, answer);
  else answer();
}

/**
 * Puts the door in front of every HTTP server of this process (instrumentation.ts, once):
 * Next.js creates its server itself, so the door wraps the servers' `request` event. A page
 * request is handed on once the page guard (page-guard.ts) admitted it: a request whose
 * body is not read yet waits (the socket's back-pressure holds the rest of the body).
 */
export function installFrontDoor(): void {
  const state = frontDoorState();
  if (state.installed) return;
  state.installed = true;
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]) {
    const handOn = () => (emit as (this: http.Server, event: string | symbol, ...rest: unknown[]) => boolean).call(this, event, ...args);
    if (event === 'request') {
      const req = args[0] as http.IncomingMessage;
      const res = args[1] as http.ServerResponse;
      try {
        pinClientAddress(req, httpLimits().trustedProxies);
      } catch {
        /* never in the way */
      }
      if (refuseOversizedAction(req, res)) return true;
      if (refuseAtFrontDoor(req, res)) return true;
      let page = false;
      try {
        page = isPagePath(pathOf(req));
      } catch {
        /* never in the way */
      }
      if (page) {
        admitPage(req, res, addressOf(req, httpLimits().trustedProxies))
          .then(
            (verdict) => ('caller' in verdict ? enterPageGate(res, handOn, verdict.caller, () => answerPageRefusal(res, BUSY)) : answerPageRefusal(res, verdict)),
            () => handOn(), // the guard failing must not take the pages down
          )
          .catch(() => res.destroy());
        return true;
      }
    }
    return handOn();
  } as typeof emit;
}
