// Page renders in progress at once, for the whole process (after the page guard admitted a
// request for its caller). Rendering a page is the costliest thing an anonymous caller can
// ask of the web process, and every render in progress interleaves its slices with every
// other request on the one event loop: with a dozen renders in flight, an API call waits
// behind a dozen slices at each of its own awaits (bench:abuse: page loops from a few
// addresses, each under its own page budget, kept the loop 84-97 % busy). So at most
// SKILLYARD_PAGE_RENDERS_IN_PROGRESS renders run at once (0: no gate), and a render beyond
// the first starts only while the event loop was busy less than
// SKILLYARD_PAGE_RENDER_LOOP_PERCENT of the last moment (100: no such check): page floods
// take what the loop has spare, not what API calls need. While pages wait their turn, each
// render is followed by a rest (SKILLYARD_PAGE_RENDER_SHARE_PERCENT, default 50: a rest as
// long as the render, at most MAX_REST_MS) before the next starts, so a flood of pages
// never keeps the loop rendering back to back (bench:abuse: the web process's CPU on the
// attacker's pages fell by a third, 16 to 11 CPU-s of a 22 s phase). Pages wait their turn, at most
// SKILLYARD_PAGE_RENDERS_WAITING of them and at most MAX_WAIT_MS each, and past either a
// page is answered 503 with Retry-After (in a full line, the caller with the most pages
// waiting gives up its newest to a caller with fewer: sixteen flooding addresses cannot
// keep a seventeenth out). The line is fair between callers (the page guard's key: a user, else an
// address), each served in order and the callers round robin, so a visitor's page waits for
// one page of each other caller, not for a flood's hundreds. A waiting request whose client
// went away leaves the line. API requests never wait here.
import 'server-only';
import type http from 'node:http';
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import { setting } from '../config';
import { FairQueue } from '../sandbox';

/** `sharePercent`: while pages wait, the share of the time renders may take (100: no rest between renders) */
export type GateLimits = { inProgress: number; waiting: number; loopPercent: number; sharePercent?: number };
/** the event loop's recent utilization, 0..1 */
export type LoopMeter = () => number;

type Waiting = { res: http.ServerResponse; go: () => void; refuse: () => void; caller: string; limits: GateLimits; meter: LoopMeter; timer?: NodeJS.Timeout };
/** `restUntil`: while pages wait, none starts before this time (performance.now()) */
type Gate = { running: number; line: FairQueue<Waiting>; timer: NodeJS.Timeout | null; restUntil: number };

const shared = globalThis as unknown as { skillyardPageRenderGate?: Gate };
const gate = (shared.skillyardPageRenderGate ??= { running: 0, line: new FairQueue<Waiting>(), timer: null, restUntil: 0 });

/** how often a waiting line looks at the loop again, and the span the utilization covers */
const SAMPLE_MS = 50;

export function pageGateLimits(): GateLimits {
  return {
    inProgress: setting('SKILLYARD_PAGE_RENDERS_IN_PROGRESS'),
    waiting: setting('SKILLYARD_PAGE_RENDERS_WAITING'),
    loopPercent: setting('SKILLYARD_PAGE_RENDER_LOOP_PERCENT'),
    sharePercent: setting('SKILLYARD_PAGE_RENDER_SHARE_PERCENT'),
  };
}

let mark: EventLoopUtilization | null = null;
let markedAt = 0;
let recent = 0;
/** The loop's utilization since the last look at least SAMPLE_MS ago (performance.eventLoopUtilization); the line looks every SAMPLE_MS while pages wait. */
export const loopUtilization: LoopMeter = () => {
  const now = performance.now();
  if (mark === null || now - markedAt >= SAMPLE_MS) {
    const current = performance.eventLoopUtilization();
    if (mark !== null) recent = performance.eventLoopUtilization(current, mark).utilization;
    mark = current;
    markedAt = now;
  }
  return recent;
};

/** the response is over (sent, or its client went away): its 'close' has been or is being emitted */
const gone = (res: http.ServerResponse) => res.destroyed || res.writableEnded;

/** the clock of rests (the global performance, which tests may fake) */
const clock = () => globalThis.performance.now();

const resting = (limits: GateLimits) => (limits.sharePercent ?? 100) < 100 && clock() < gate.restUntil;

const mayStart = (limits: GateLimits, meter: LoopMeter) =>
  !resting(limits) && (gate.running === 0 || (gate.running < limits.inProgress && (limits.loopPercent >= 100 || meter() * 100 < limits.loopPercent)));

/** the longest rest after a render (a render that held its slot long, e.g. for a slow reader, costs no more) */
export const MAX_REST_MS = 250;

/**
 * After a render of `heldMs` while pages wait: the next starts only after a rest, so that
 * renders take at most `sharePercent` of the time (50: a rest as long as the render).
 */
function restAfter(heldMs: number, limits: GateLimits): void {
  const share = limits.sharePercent ?? 100;
  if (share >= 100 || gate.line.size === 0) return;
  const rest = Math.min(MAX_REST_MS, (heldMs * (100 - share)) / share);
  gate.restUntil = Math.max(gate.restUntil, clock() + rest);
}

/** the longest a page waits in the line before it is answered 503 (the client may retry) */
export const MAX_WAIT_MS = 15_000;

/**
 * Runs `go` (hands the request on to Next.js) now or when a render may start, or `refuse`
 * (the caller answers 503): at once when the line is full of this caller's pages, later
 * when the page waited MAX_WAIT_MS, or when a caller with fewer pages waiting needs its
 * place in a full line (the newest page of the caller with the most waiting gives way).
 * The slot is held until the response closes (at most MAX_HOLD_MS).
 * `caller`: whose page it is (the line is fair between callers).
 */
export function enterPageGate(
  res: http.ServerResponse,
  go: () => void,
  caller: string,
  refuse: () => void,
  limits: GateLimits = pageGateLimits(),
  meter: LoopMeter = loopUtilization,
): void {
  if (limits.inProgress <= 0) return go();
  // a client that went away while the page guard looked it up: its response's 'close' was
  // emitted already, so a slot taken now would never be given back (nor a place in the line)
  if (gone(res)) return;
  const waiting: Waiting = { res, go, refuse, caller, limits, meter };
  if (gate.line.size === 0 && mayStart(limits, meter)) return start(waiting);
  if (gate.line.size >= limits.waiting && !makeRoomFor(caller)) return refuse();
  gate.line.push(caller, waiting);
  const leave = () => {
    clearTimeout(waiting.timer);
    gate.line.remove(caller, waiting);
  };
  res.once('close', leave);
  waiting.timer = setTimeout(() => {
    if (gate.line.remove(caller, waiting)) refuse();
  }, MAX_WAIT_MS);
  waiting.timer.unref?.();
  pump();
}

/** In a full line, the newest page of the caller with the most waiting gives way to a caller with fewer. */
function makeRoomFor(caller: string): boolean {
  const largest = gate.line.largest();
  if (largest === undefined || gate.line.sizeOf(caller) + 1 >= gate.line.sizeOf(largest)) return false;
  const evicted = gate.line.popNewest(largest)!;
  clearTimeout(evicted.timer);
  evicted.refuse();
  return true;
}

/**
 * A render holds its slot until its response closes, but at most this long: a client that
 * stops reading (a zero TCP window) keeps its response open for good, and Next.js waits for
 * it to drain, using no CPU; four such requests would otherwise stop every page.
 */
export const MAX_HOLD_MS = 10_000;

function start(w: Waiting): void {
  gate.running++;
  let held = true;
  const startedAt = clock();
  const release = () => {
    if (!held) return;
    held = false;
    clearTimeout(timer);
    gate.running--;
    restAfter(clock() - startedAt, w.limits);
    pump();
  };
  const timer = setTimeout(release, MAX_HOLD_MS);
  timer.unref?.();
  w.res.once('close', release);
  w.go();
}

/** Starts waiting renders while they may start; looks again in SAMPLE_MS while some wait. */
function pump(): void {
  for (;;) {
    const w = gate.line.peek();
    if (!w) return;
    if (gone(w.res)) {
      gate.line.remove(w.caller, w);
      continue;
    }
    if (!mayStart(w.limits, w.meter)) break;
    gate.line.take();
    clearTimeout(w.timer);
    start(w);
  }
  // resting: look again when the rest is over (a page must not wait a whole sample longer)
  const rest = gate.restUntil - clock();
  gate.timer ??= setTimeout(
    () => {
      gate.timer = null;
      pump();
    },
    rest > 0 ? Math.min(SAMPLE_MS, Math.ceil(rest)) : SAMPLE_MS,
  );
  gate.timer.unref?.();
}

/** Only for tests: renders running and waiting now. */
export const pageGateState = () => ({ running: gate.running, waiting: gate.line.size });
