// At most N page renders run at once; the rest wait in order, a waiting page whose client
// went away leaves the line, and a full line refuses.
import { EventEmitter } from 'node:events';
import type http from 'node:http';
import { describe, expect, it } from 'vitest';
import { enterPageGate, pageGateState } from './page-render-gate';

/** A response that closes when told to (as Node's does when it is sent or its client goes). */
function response(): http.ServerResponse & { close(): void } {
  const res = new EventEmitter() as unknown as http.ServerResponse & { close(): void; destroyed: boolean; writableEnded: boolean };
  res.destroyed = false;
  res.writableEnded = false;
  res.close = () => {
    res.writableEnded = true;
    res.emit('close');
  };
  return res;
}

describe('the page render gate', () => {
  it('runs at most N at once, the rest in order as slots free up', () => {
    const limits = { inProgress: 2, waiting: 2 };
    const started: number[] = [];
    const res = Array.from({ length: 5 }, () => response());
    const entered = res.map((r, i) => enterPageGate(r, () => started.push(i), limits));
    expect(entered).toEqual([true, true, true, true, false]); // two run, two wait, the fifth is refused
    expect(started).toEqual([0, 1]);
    expect(pageGateState()).toEqual({ running: 2, waiting: 2 });
    res[0]!.close();
    expect(started).toEqual([0, 1, 2]);
    res[3]!.close(); // gone while waiting: leaves the line, never started
    expect(pageGateState()).toEqual({ running: 2, waiting: 0 });
    res[1]!.close();
    res[2]!.close();
    expect(started).toEqual([0, 1, 2]);
    expect(pageGateState()).toEqual({ running: 0, waiting: 0 });
  });

  it('lets every page through at once when switched off (0)', () => {
    const started: number[] = [];
    for (let i = 0; i < 10; i++) expect(enterPageGate(response(), () => started.push(i), { inProgress: 0, waiting: 0 })).toBe(true);
    expect(started).toHaveLength(10);
    expect(pageGateState()).toEqual({ running: 0, waiting: 0 });
  });
});
