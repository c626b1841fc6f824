// Execution slots of a run worker (run-slots.ts).
import { describe, expect, it } from 'vitest';
import { RunSlots } from './run-slots';

describe('run slots', () => {
  it('tell the worker when a run ends and frees a slot, but not when a claim found nothing', () => {
    let freed = 0;
    const slots = new RunSlots(2, () => freed++);
    const a = slots.tryTake()!;
    const b = slots.tryTake()!;
    expect(slots.tryTake()).toBeNull();
    a.unused();
    expect(freed).toBe(0);
    expect(slots.available()).toBe(1);
    b.end();
    expect(freed).toBe(1);
    b.end();
    a.unused();
    expect(slots.available()).toBe(2);
  });

  it('hand an unused slot to a run waiting to take its slot back', async () => {
    let freed = 0;
    const slots = new RunSlots(1, () => freed++);
    const running = slots.tryTake()!;
    running.release(); // waits for a person's turn: the worker may claim another run
    expect(freed).toBe(1);
    const claim = slots.tryTake()!;
    const back = running.acquire(new AbortController().signal);
    claim.unused();
    await back;
    expect(freed).toBe(1);
    expect(slots.available()).toBe(0);
  });
});
