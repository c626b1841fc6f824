// Page renders in progress at once, for the whole process (after the page guard admitted a
// request for its caller). Rendering a page is the costliest thing an anonymous caller can
// ask of the web process, and every render in progress interleaves its slices with every
// other request on the one event loop: with a dozen renders in flight, an API call waits
// behind a dozen slices at each of its own awaits (bench:abuse: page loops from a few
// addresses, each under its own page budget, kept the loop 84-97 % busy). So at most
// SKILLYARD_PAGE_RENDERS_IN_PROGRESS renders run at once (0: no gate); the rest wait their
// turn in order, at most SKILLYARD_PAGE_RENDERS_WAITING of them, and past that a page is
// answered 503 with Retry-After. A waiting request whose client went away leaves the line.
// API requests never wait here.
import 'server-only';
import type http from 'node:http';
import { setting } from '../config';

type Waiting = { res: http.ServerResponse; go: () => void };
type Gate = { running: number; line: Waiting[] };

const shared = globalThis as unknown as { skillyardPageRenderGate?: Gate };
const gate = (shared.skillyardPageRenderGate ??= { running: 0, line: [] });

export type GateLimits = { inProgress: number; waiting: number };

export function pageGateLimits(): GateLimits {
  return { inProgress: setting('SKILLYARD_PAGE_RENDERS_IN_PROGRESS'), waiting: setting('SKILLYARD_PAGE_RENDERS_WAITING') };
}

/**
 * Runs `go` (hands the request on to Next.js) now or when a render slot frees up; false when
 * the line is full (the caller answers 503). The slot is held until the response closes.
 */
export function enterPageGate(res: http.ServerResponse, go: () => void, limits: GateLimits = pageGateLimits()): boolean {
  if (limits.inProgress <= 0) {
    go();
    return true;
  }
  if (gate.running < limits.inProgress) {
    start({ res, go });
    return true;
  }
  if (gate.line.length >= limits.waiting) return false;
  const waiting = { res, go };
  gate.line.push(waiting);
  res.once('close', () => {
    const at = gate.line.indexOf(waiting);
    if (at >= 0) gate.line.splice(at, 1);
  });
  return true;
}

function start(w: Waiting): void {
  gate.running++;
  w.res.once('close', () => {
    gate.running--;
    next();
  });
  w.go();
}

function next(): void {
  const w = gate.line.shift();
  if (!w) return;
  if (w.res.destroyed || w.res.writableEnded) return next();
  start(w);
}

/** Only for tests: renders running and waiting now. */
export const pageGateState = () => ({ running: gate.running, waiting: gate.line.length });
