// Execution slots of one worker: a run holds one while it executes and gives it back
// while it waits for a person's turn, so waiting runs never block others. A run that
// wants its slot back goes before new runs from the queue.
import 'server-only';

export type RunSlot = {
  /** gives the slot back while the run waits (idempotent) */
  release(): void;
  /** takes a slot again, waiting for one if all are busy; rejects when `signal` aborts */
  acquire(signal: AbortSignal): Promise<void>;
  /** the run ended: gives the slot back if it holds one */
  end(): void;
  /**
   * The slot was taken for a claim that found no run: it goes back without `onFree` (which
   * would make the worker claim again at once, and an empty queue would be asked in a loop).
   */
  unused(): void;
};

export class RunSlots {
  private free: number;
  private waiters: Array<() => void> = [];

  constructor(
    readonly size: number,
    /** called when a slot frees up with nobody waiting for it (the worker claims more) */
    private onFree: () => void = () => {},
  ) {
    this.free = size;
  }

  available(): number {
    return this.free;
  }

  /** takes a slot for a newly claimed run, or returns null when none is free */
  tryTake(): RunSlot | null {
    if (this.free <= 0 || this.waiters.length > 0) return null;
    this.free--;
    return this.handle();
  }

  private give(quietly = false) {
    const next = this.waiters.shift();
    if (next) next();
    else {
      this.free++;
      if (!quietly) this.onFree();
    }
  }

  private handle(): RunSlot {
    let holding = true;
    let acquiring: Promise<void> | null = null;
    return {
      release: () => {
        if (!holding) return;
        holding = false;
        this.give();
      },
      acquire: (signal) => {
        if (holding) return Promise.resolve();
        acquiring ??= new Promise<void>((resolve, reject) => {
          const take = () => {
            signal.removeEventListener('abort', onAbort);
            holding = true;
            acquiring = null;
            resolve();
          };
          const onAbort = () => {
            const i = this.waiters.indexOf(take);
            if (i >= 0) this.waiters.splice(i, 1);
            acquiring = null;
            reject(signal.reason ?? new Error('aborted'));
          };
          if (signal.aborted) return onAbort();
          if (this.free > 0 && this.waiters.length === 0) {
            this.free--;
            return take();
          }
          this.waiters.push(take);
          signal.addEventListener('abort', onAbort, { once: true });
        });
        return acquiring;
      },
      end: () => {
        if (!holding) return;
        holding = false;
        this.give();
      },
      unused: () => {
        if (!holding) return;
        holding = false;
        this.give(true);
      },
    };
  }
}
