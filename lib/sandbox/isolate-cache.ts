// Warm isolates: an idle isolate + context + evaluated module is kept per job key and
// reused only by a later job with the same key, source, prelude, host methods and memory
// limit. A running job checks its isolate out, so two jobs never share one at a time.
// Bounded over all idle isolates, scan-resistant and fair between principals (the fair
// queue's callers): when full, an isolate that ran one job only goes before one that was
// reused, and the principal holding the most such isolates loses its least recently used.
// A flood of one-off keys (an anonymous caller without an identity makes a new key per
// call) then evicts only its own isolates, never another caller's warm one (issue 23).
// Evicted isolates are disposed.
import type ivm from 'isolated-vm';

export type WarmIsolate = {
  key: string;
  /** whose idle isolate this is, for fair eviction (the job's principal; '' when unknown) */
  principal: string;
  /** when it was last checked in (the cache's own counter), to break ties between principals */
  idleSince: number;
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
  /** principal -> its idle entries, least recently used first (Map keeps insertion order) */
  private readonly byPrincipal = new Map<string, Map<WarmIsolate, true>>();
  private idle = 0;
  private checkins = 0;

  constructor(private readonly maxIdle: number) {}

  get size(): number {
    return this.idle;
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
    let own = this.byPrincipal.get(entry.principal);
    if (!own) this.byPrincipal.set(entry.principal, (own = new Map()));
    own.set(entry, true);
    entry.idleSince = ++this.checkins;
    this.idle++;
    if (list.length > MAX_VARIANTS_PER_KEY) this.evict(list[0], true);
    while (this.idle > this.maxIdle) this.evict(this.victim(), true);
  }

  clear(): void {
    for (const own of [...this.byPrincipal.values()]) for (const entry of [...own.keys()]) this.evict(entry);
  }

  /**
   * Who goes when the cache is full: an isolate that ran one job only (a one-off key's never
   * runs another) before any that was reused; among those, the least recently used one of
   * the principal holding the most, ties to the one idle longest.
   */
  private victim(): WarmIsolate {
    return this.fairest((e) => e.uses < 2) ?? this.fairest(() => true)!;
  }

  private fairest(eligible: (e: WarmIsolate) => boolean): WarmIsolate | undefined {
    let victim: WarmIsolate | undefined;
    let most = 0;
    for (const own of this.byPrincipal.values()) {
      let count = 0;
      let oldest: WarmIsolate | undefined;
      for (const e of own.keys()) if (eligible(e) && count++ === 0) oldest = e;
      if (count > most || (count === most && count > 0 && oldest!.idleSince < victim!.idleSince)) {
        most = count;
        victim = oldest;
      }
    }
    return victim;
  }

  /** `later`: dispose after the current job has answered (disposing takes up to a millisecond) */
  private evict(entry: WarmIsolate, later = false): void {
    this.remove(entry);
    if (!later) return disposeWarmIsolate(entry);
    entry.active = null;
    setImmediate(() => disposeWarmIsolate(entry)).unref?.();
  }

  private remove(entry: WarmIsolate): void {
    const own = this.byPrincipal.get(entry.principal);
    if (own?.delete(entry)) {
      this.idle--;
      if (own.size === 0) this.byPrincipal.delete(entry.principal);
    }
    const list = this.byKey.get(entry.key);
    if (!list) return;
    const at = list.indexOf(entry);
    if (at === list.length - 1) list.pop();
    else if (at >= 0) list.splice(at, 1);
    if (list.length === 0) this.byKey.delete(entry.key);
  }
}
