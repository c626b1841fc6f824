// Cold starts cost: a job whose key has no warm isolate makes one (isolate, context,
// bridge, module: about 4 ms of a worker's CPU, and about 1 ms more to dispose of it
// later), against about 0.1 ms for a warm job. The fair queue shares slots between
// principals, not CPU, so a principal whose every job is cold (anonymous callers without
// an identity make a new key per call) took a core and more in bench:abuse and the other
// callers' jobs waited behind its setups. Each principal gets a token bucket of cold
// starts: `burst` at once, `perSecond` after that. A cold job without a token waits in the
// queue (its lane keeps its place) while other principals' jobs go ahead; a principal that
// keeps sending them fills its own share of the queue and is refused with Retry-After.
export type ColdBudgetOptions = { perSecond: number; burst: number; now?: () => number };

type Bucket = { tokens: number; at: number };

/** principals remembered; a full bucket is the same as none, so only those refilling are kept */
const MAX_PRINCIPALS = 10_000;

export class ColdBudget {
  private readonly buckets = new Map<string, Bucket>();
  private readonly now: () => number;

  constructor(private readonly opts: ColdBudgetOptions) {
    this.now = opts.now ?? (() => performance.now());
  }

  /** 0: no budget (every cold start may go at once) */
  get enabled(): boolean {
    return this.opts.perSecond > 0;
  }

  /** ms between two cold starts once the burst is spent */
  get intervalMs(): number {
    return this.enabled ? 1000 / this.opts.perSecond : 0;
  }

  /** whether `principal` may start a cold job now (does not take the token) */
  has(principal: string): boolean {
    return !this.enabled || this.level(principal) >= 1;
  }

  /** takes one cold start for `principal`; false when it has none left */
  take(principal: string): boolean {
    if (!this.enabled) return true;
    const tokens = this.level(principal);
    if (tokens < 1) return false;
    if (this.buckets.size >= MAX_PRINCIPALS && !this.buckets.has(principal)) this.prune();
    this.buckets.set(principal, { tokens: tokens - 1, at: this.now() });
    return true;
  }

  /** ms until `principal` has a cold start again (0: it has one) */
  waitMs(principal: string): number {
    if (!this.enabled) return 0;
    const tokens = this.level(principal);
    return tokens >= 1 ? 0 : Math.ceil(((1 - tokens) * 1000) / this.opts.perSecond);
  }

  private level(principal: string): number {
    const b = this.buckets.get(principal);
    if (!b) return this.opts.burst;
    const tokens = Math.min(this.opts.burst, b.tokens + ((this.now() - b.at) * this.opts.perSecond) / 1000);
    if (tokens >= this.opts.burst) this.buckets.delete(principal);
    return tokens;
  }

  /** forgets full buckets, then (still too many) the oldest: forgetting one only hands it a full burst */
  private prune(): void {
    for (const p of [...this.buckets.keys()]) this.level(p);
    for (const p of this.buckets.keys()) {
      if (this.buckets.size < MAX_PRINCIPALS) break;
      this.buckets.delete(p);
    }
  }
}
