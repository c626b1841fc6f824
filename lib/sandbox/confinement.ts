// Which workers a caller's jobs may take. A worker runs guest code synchronously, one
// segment at a time, so a job that burns its whole CPU budget (an endless loop, a huge
// allocation) holds its worker for up to `cpuMs`, and every job sent there waits for it.
// Fair queueing cannot help once such a job runs. So a caller (a principal of the fair
// queue) whose job went heavy is marked for a while; its jobs then share the workers that
// already run marked callers' jobs and never take the last workers free of them. Every
// other caller keeps at least one worker that no endless loop can hold (pool.ts `pick`).
import { CANCELLED, type RawResult } from './raw-result';

/** a job that used this much CPU marks its caller (a tool call takes a few milliseconds) */
export const HEAVY_CPU_MS = 250;
/** how long a mark lasts after the caller's last heavy job */
export const HEAVY_HOLD_MS = 5 * 60_000;
/** marks kept at most (the oldest go first) */
const MAX_MARKS = 10_000;
/** a caller whose job ended light is known light for this long (the reserve worker takes only them) */
export const LIGHT_HOLD_MS = 10 * 60_000;
/** the failures that mean the job held its worker to a limit */
const HEAVY_CODES = new Set(['sandbox/cpu-limit', 'sandbox/memory-limit', 'sandbox/worker-crashed']);

/** Workers marked callers may occupy at once: all but a quarter (at least one kept free). */
export function heavyWorkerCap(workers: number): number {
  return Math.max(1, workers - Math.max(1, Math.floor(workers / 4)));
}

export class Confinement {
  /** principal -> when its mark ends (ms since the epoch) */
  private readonly marks = new Map<string, number>();
  /** principal -> until when it counts as known light (its last light job + LIGHT_HOLD_MS) */
  private readonly light = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  isHeavy(principal: string): boolean {
    const until = this.marks.get(principal);
    if (until === undefined) return false;
    if (until > this.now()) return true;
    this.marks.delete(principal);
    return false;
  }

  /** Reads a finished job's result: heavy when it used HEAVY_CPU_MS or stopped at a limit. */
  observe(principal: string, raw: Pick<RawResult, 'ok' | 'cpuMs'> & { error?: { code: string; message: string } }): void {
    const cpu = typeof raw.cpuMs === 'number' ? raw.cpuMs : 0;
    const atLimit = !raw.ok && raw.error !== undefined && HEAVY_CODES.has(raw.error.code) && raw.error.message !== CANCELLED;
    if (cpu >= HEAVY_CPU_MS || atLimit) this.mark(principal);
    else if (raw.ok || raw.error?.code === 'sandbox/guest-error') this.remember(this.light, principal, LIGHT_HOLD_MS);
  }

  /** Its last job ended light (and it has no mark): the reserve worker may take its jobs. */
  isKnownLight(principal: string): boolean {
    const until = this.light.get(principal);
    if (until === undefined) return false;
    if (until <= this.now()) {
      this.light.delete(principal);
      return false;
    }
    return !this.isHeavy(principal);
  }

  /** Marks a caller whose job crashed or wedged its worker. */
  mark(principal: string): void {
    this.remember(this.marks, principal, HEAVY_HOLD_MS);
  }

  private remember(map: Map<string, number>, principal: string, holdMs: number): void {
    map.delete(principal);
    map.set(principal, this.now() + holdMs);
    if (map.size > MAX_MARKS) map.delete(map.keys().next().value as string);
  }

  get size(): number {
    return this.marks.size;
  }
}
