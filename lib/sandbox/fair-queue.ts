// The pool's wait queue, fair between principals: one FIFO per principal, served round
// robin, so one caller with hundreds of queued jobs delays another caller's job by at
// most one job per principal ahead of it, and fills only its own share of the queue.
export class FairQueue<T> {
  /** principal -> its waiting items; Map order is the round-robin order */
  private readonly lanes = new Map<string, T[]>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** items waiting for one principal */
  sizeOf(principal: string): number {
    return this.lanes.get(principal)?.length ?? 0;
  }

  get principals(): number {
    return this.lanes.size;
  }

  /**
   * Items served before one that `principal` pushes now: all of its own, and from every
   * other lane at most one more than it has (round robin), never the whole queue.
   */
  aheadOf(principal: string): number {
    const own = this.sizeOf(principal);
    let ahead = own;
    for (const [p, lane] of this.lanes) if (p !== principal) ahead += Math.min(lane.length, own + 1);
    return ahead;
  }

  push(principal: string, item: T): void {
    const lane = this.lanes.get(principal);
    if (lane) lane.push(item);
    else this.lanes.set(principal, [item]);
    this.count++;
  }

  /** puts an item back at the head of the queue (a retried job goes first) */
  pushFront(principal: string, item: T): void {
    const lane = this.lanes.get(principal) ?? [];
    lane.unshift(item);
    const rest = [...this.lanes].filter(([p]) => p !== principal);
    this.lanes.clear();
    this.lanes.set(principal, lane);
    for (const [p, l] of rest) this.lanes.set(p, l);
    this.count++;
  }

  /** the first waiting item of each principal, in rotation order */
  *heads(): Generator<T> {
    for (const lane of this.lanes.values()) yield lane[0]!;
  }

  /** the item the next take() returns */
  peek(): T | undefined {
    for (const lane of this.lanes.values()) return lane[0];
    return undefined;
  }

  /**
   * Removes the first head item, in rotation order, that `fits`; its principal moves to the
   * back of the rotation. Lanes whose head does not fit keep their place.
   */
  takeFirst(fits: (item: T) => boolean): T | undefined {
    for (const [principal, lane] of this.lanes) {
      if (!fits(lane[0]!)) continue;
      const item = lane.shift()!;
      this.lanes.delete(principal);
      if (lane.length > 0) this.lanes.set(principal, lane);
      this.count--;
      return item;
    }
    return undefined;
  }

  /** removes the head item; its principal moves to the back of the rotation */
  take(): T | undefined {
    return this.takeFirst(() => true);
  }

  /** the principal with the most items waiting (the first of them in rotation order) */
  largest(): string | undefined {
    let best: string | undefined;
    let most = 0;
    for (const [principal, lane] of this.lanes) if (lane.length > most) [best, most] = [principal, lane.length];
    return best;
  }

  /** removes a principal's newest item */
  popNewest(principal: string): T | undefined {
    const lane = this.lanes.get(principal);
    const item = lane?.pop();
    if (item === undefined) return undefined;
    if (lane!.length === 0) this.lanes.delete(principal);
    this.count--;
    return item;
  }

  remove(principal: string, item: T): boolean {
    const lane = this.lanes.get(principal);
    const at = lane ? lane.indexOf(item) : -1;
    if (!lane || at < 0) return false;
    lane.splice(at, 1);
    if (lane.length === 0) this.lanes.delete(principal);
    this.count--;
    return true;
  }

  drain(): T[] {
    const all = [...this.lanes.values()].flat();
    this.lanes.clear();
    this.count = 0;
    return all;
  }
}

/** The principal of a job: its own field, else the key up to the first `|` (`user:42|tool@1|hash`). */
export function principalOf(job: { key: string; principal?: string }): string {
  if (typeof job.principal === 'string' && job.principal !== '') return job.principal;
  const bar = job.key.indexOf('|');
  return bar > 0 ? job.key.slice(0, bar) : job.key;
}
