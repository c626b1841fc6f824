// Background failures that no request sees (a heartbeat that cannot reach the database,
// a LISTEN connection that dropped, a sandbox worker that died): logged with context and
// counted per component, so /api/health can say what is failing instead of staying green.
import { serializeError } from './redact';
import { log, type LogFields } from './logger';

export type ComponentFailure = { component: string; count: number; lastAt: string; lastMessage: string };

type Failure = { count: number; lastAt: number; lastMessage: string };
// one registry per process, even when Next.js bundles this module into several chunks
const holder = globalThis as unknown as { skillyardFailures?: Map<string, Failure> };
const failures = (holder.skillyardFailures ??= new Map<string, Failure>());

/** Logs `err` at error level under `component` and records it for health. */
export function reportFailure(component: string, err: unknown, fields: LogFields = {}): void {
  const e = serializeError(err);
  log.error(`${component} failed`, { component, err: e, ...fields });
  const prev = failures.get(component);
  failures.set(component, { count: (prev?.count ?? 0) + 1, lastAt: Date.now(), lastMessage: String(e.message ?? '') });
}

/** Marks `component` as working again (a later success clears its failure). */
export function reportRecovery(component: string): void {
  if (failures.delete(component)) log.info(`${component} recovered`, { component });
}

/** Components whose last failure is within `withinMs` (default 60 s) and not yet recovered. */
export function recentFailures(withinMs = 60_000, now = Date.now()): ComponentFailure[] {
  const out: ComponentFailure[] = [];
  for (const [component, f] of failures) {
    if (now - f.lastAt <= withinMs) out.push({ component, count: f.count, lastAt: new Date(f.lastAt).toISOString(), lastMessage: f.lastMessage });
  }
  return out.sort((a, b) => a.component.localeCompare(b.component));
}

/** For tests: forget every recorded failure. */
export function clearFailures(): void {
  failures.clear();
}
