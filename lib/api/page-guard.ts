// Page requests (every path but the API and static files) before Next.js routes them or
// reads a body; front-door.ts holds each one here. Per caller (a signed-in user, else the
// client address) pages are rate limited (SKILLYARD_RATE_LIMIT_PAGES per window; a form
// post costs PAGE_POST_COST) and only so many render at once; a form post larger than
// 1 MiB (the publish page's upload) needs a session that exists, looked up (cached), not
// a cookie that merely looks like one; and a form's parts are counted as they arrive, so
// Next.js never decodes more of them than its page needs.
import 'server-only';
import type http from 'node:http';
import { db } from '../db';
import { cachedSessionUser, sessionTokenFrom, verifiedSessionUser } from '../auth';
import { needsSession, pathOf, uploadFormParts } from './action-body-limit';
import { httpLimits, PAGE_POST_COST, consumeRateLimit, overLimitForMs } from '../limits';
import { limitMultipartParts } from './multipart-part-limit';

/** `pastLimit`: the caller was already past its page budget (the refusal is held: refusal-tarpit.ts) */
export type PageRefusal = { status: number; code: string; message: string; retryAfterS?: number; pastLimit?: boolean };

// pages in progress per key in this process (shared by every bundle that loads this module)
const shared = globalThis as unknown as { skillyardPagesInProgress?: Map<string, number> };
const inProgress = (shared.skillyardPagesInProgress ??= new Map<string, number>());

const tooMany = (ms: number): PageRefusal => {
  const s = Math.max(1, Math.ceil(ms / 1000));
  return { status: 429, code: 'rate/limited', message: `Too many page requests; retry in ${s} s.`, retryAfterS: s };
};

/** session look-ups per window for cookies not known yet, from an address past its page budget */
const SESSION_LOOKUPS_PAST_BUDGET = 30;
const lookupAllowed = async (address: string, windowMs: number) =>
  (await consumeRateLimit(db(), `page:lookup:${address}`, { limit: SESSION_LOOKUPS_PAST_BUDGET, windowMs })).allowed;

/** An admitted page: `caller`, the key its limits were counted under (the render gate's line is fair between them). */
export type PageAdmission = { caller: string };

/**
 * Admits a page request or says why not. An admitted request counts as in progress
 * until its response closes, and a form post's parts are bounded from then on.
 * `address`: the client address the limits are keyed by (front-door.ts).
 */
export async function admitPage(req: http.IncomingMessage, res: http.ServerResponse, address: string): Promise<PageRefusal | PageAdmission> {
  const limits = httpLimits();
  const ipKey = `page:ip:${address}`;
  const cookie = req.headers.cookie;
  const token = sessionTokenFrom(typeof cookie === 'string' ? cookie : null);
  // an address past its budget is refused at once, but a signed-in user behind it is not
  // (a session is looked up as withApi would: one indexed read, then cached); from such an
  // address, cookies this process does not know yet are looked up SESSION_LOOKUPS_PAST_BUDGET
  // times a window at most, so made-up cookies buy no stream of database reads
  const blocked = overLimitForMs(ipKey);
  if (blocked > 0) {
    const lookUp = token !== null && (cachedSessionUser(token) !== undefined || (await lookupAllowed(address, limits.rateWindowMs)));
    if (!lookUp) return { ...tooMany(blocked), pastLimit: true };
  }
  const userId = token ? await verifiedSessionUser(db(), token).catch(() => null) : null;
  const post = req.method === 'POST';
  if (post && needsSession(req) && !userId) {
    // a refused upload counts against the address's page budget like any form post
    await consumeRateLimit(db(), ipKey, { limit: limits.ratePages, windowMs: limits.rateWindowMs, cost: PAGE_POST_COST });
    return { status: 401, code: 'auth/unauthenticated', message: 'Sign in to publish.' };
  }
  const key = userId ? `page:user:${userId}` : ipKey;
  const decision = await consumeRateLimit(db(), key, { limit: limits.ratePages, windowMs: limits.rateWindowMs, cost: post ? PAGE_POST_COST : 1 });
  if (!decision.allowed) return tooMany(decision.resetMs);
  // the client went away during the look-ups: its 'close' was emitted already, so a page
  // counted now would stay in progress for good (the render gate then skips it too)
  if (res.destroyed || res.writableEnded) return { caller: key };
  const now = inProgress.get(key) ?? 0;
  if (now >= limits.maxConcurrentPagesPerCaller) {
    return {
      status: 429,
      code: 'rate/limited',
      message: `Too many pages in progress at once (at most ${limits.maxConcurrentPagesPerCaller}); retry when one has finished.`,
      retryAfterS: 1,
    };
  }
  inProgress.set(key, now + 1);
  res.once('close', () => {
    const left = (inProgress.get(key) ?? 1) - 1;
    if (left <= 0) inProgress.delete(key);
    else inProgress.set(key, left);
  });
  if (post) {
    const maxParts = pathOf(req) === '/publish' && userId ? uploadFormParts() : limits.maxFormParts;
    limitMultipartParts(req, maxParts, (parts) => cutOff(req, res, `The form holds more than ${maxParts} parts (${parts} so far).`));
  }
  return { caller: key };
}

/** Answers 413 (when nothing was answered yet) and tears the connection down: the rest of the body is never read. */
function cutOff(req: http.IncomingMessage, res: http.ServerResponse, message: string): void {
  const close = () => {
    req.socket?.destroy();
  };
  if (res.headersSent || res.writableEnded) return close();
  const body = JSON.stringify({ error: { code: 'input/too-large', message } });
  try {
    res.writeHead(413, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), Connection: 'close' });
    res.end(body, close);
  } catch {
    close();
  }
}

/** Only for tests: pages in progress for a key. */
export const pagesInProgress = (key: string) => inProgress.get(key) ?? 0;
