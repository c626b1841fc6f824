// Warm isolates: an idle isolate + context + evaluated module is kept per job key and
// reused only by a later job with the same key, source, prelude, host methods and memory
// limit. A running job checks its isolate out, so two jobs never share one at a time.
// Bounded LRU over all idle isolates; evicted ones are disposed.
import type ivm from 'isolated-vm';

export type WarmIsolate = {
  key: string;
  source: string;
  prelude: string | undefined;
  methodsSig: string;
  memoryMb: number;
  isolate: ivm.Isolate;
  context: ivm.Context;
  run: ivm.Reference;
  settle: ivm.Reference;
  /** installs `host` (once, before the prelude); released after use */
  init: ivm.Reference | null;
  setNamespace: ivm.Reference | null;
  /** routing for the bridge callbacks: the job currently using this isolate */
  active: unknown;
  /** jobs run in this isolate (heap statistics are sampled, not read after every job) */
  uses: number;
  /** entry and limits the bridge's last full `run` call stored (null: unknown, pass them again) */
  runConfig: string | null;
};

export type Fingerprint = Pick<WarmIsolate, 'key' | 'source' | 'prelude' | 'methodsSig' | 'memoryMb'>;

const MAX_VARIANTS_PER_KEY = 4;

export function disposeWarmIsolate(entry: WarmIsolate): void {
  entry.active = null;
  if (!entry.isolate.isDisposed) {
    try {
      entry.isolate.dispose();
    } catch {
      // already gone (memory limit); nothing left to free
    }
  }
}

export class IsolateCache {
  private readonly byKey = new Map<string, WarmIsolate[]>();
  /** every idle entry, least recently used first (Map keeps insertion order) */
  private readonly lru = new Map<WarmIsolate, true>();

  constructor(private readonly maxIdle: number) {}

  get size(): number {
    return this.lru.size;
  }

  checkout(want: Fingerprint): WarmIsolate | undefined {
    const list = this.byKey.get(want.key);
    if (!list) return undefined;
    for (let i = list.length - 1; i >= 0; i--) {
      const e = list[i];
      if (e.source === want.source && e.prelude === want.prelude && e.methodsSig === want.methodsSig && e.memoryMb === want.memoryMb) {
        this.remove(e);
        if (e.isolate.isDisposed) return undefined;
        return e;
      }
    }
    return undefined;
  }

  checkin(entry: WarmIsolate): void {
    if (this.maxIdle <= 0 || entry.isolate.isDisposed) {
      disposeWarmIsolate(entry);
      return;
    }
    entry.active = null;
    let list = this.byKey.get(entry.key);
    if (list) list.push(entry);
    else this.byKey.set(entry.key, (list = [entry]));
    this.lru.set(entry, true);
    if (list.length > MAX_VARIANTS_PER_KEY) this.evict(list[0], true);
    while (this.lru.size > this.maxIdle) this.evict(this.lru.keys().next().value as WarmIsolate, true);
  }

  clear(): void {
    for (const entry of [...this.lru.keys()]) this.evict(entry);
  }

  /** `later`: dispose after the current job has answered (disposing takes up to a millisecond) */
  private evict(entry: WarmIsolate, later = false): void {
    this.remove(entry);
    if (!later) return disposeWarmIsolate(entry);
    entry.active = null;
    setImmediate(() => disposeWarmIsolate(entry)).unref?.();
  }

  private remove(entry: WarmIsolate): void {
    this.lru.delete(entry);
    const list = this.byKey.get(entry.key);
    if (!list) return;
    const at = list.indexOf(entry);
    if (at === list.length - 1) list.pop();
    else if (at >= 0) list.splice(at, 1);
    if (list.length === 0) this.byKey.delete(entry.key);
  }
}
