// At most N page renders run at once, and beyond the first only while the event loop has
// time to spare; the rest wait in order, a waiting page whose client went away leaves the
// line, a full line refuses, and the line is fair between callers.
import { EventEmitter } from 'node:events';
import type http from 'node:http';
import { describe, expect, it, vi } from 'vitest';
import { MAX_HOLD_MS, MAX_REST_MS, MAX_WAIT_MS, enterPageGate, pageGateState, type GateLimits } from './page-render-gate';

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

/** Pages entered into the gate by name, logged as they start or are refused. */
function gateLog(limits: GateLimits) {
  const log: string[] = [];
  const open: Array<ReturnType<typeof response>> = [];
  const enter = (caller: string, name: string) => {
    const r = response();
    open.push(r);
    enterPageGate(
      r,
      () => log.push(`start ${name}`),
      caller,
      () => log.push(`refused ${name}`),
      limits,
    );
    return r;
  };
  return { log, open, enter };
}

/**
 * Runs `body` on a fake clock (timers and performance.now), once an earlier test's look at
 * the line (a real timer, SAMPLE_MS) has fired, so the fake timers see a gate at rest.
 */
async function onFakeClock(body: () => void): Promise<void> {
  await new Promise((r) => setTimeout(r, 60));
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  try {
    body();
  } finally {
    vi.useRealTimers();
  }
}

describe('the page render gate', () => {
  it('runs at most N at once, the rest in order as slots free up', () => {
    const limits = { inProgress: 2, waiting: 2, loopPercent: 100 };
    const started: number[] = [];
    const res = Array.from({ length: 5 }, () => response());
    const refused: number[] = [];
    res.forEach((r, i) =>
      enterPageGate(
        r,
        () => started.push(i),
        'page:ip:a',
        () => refused.push(i),
        limits,
      ),
    );
    expect(refused).toEqual([4]); // two run, two wait, the fifth is refused
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

  it('holds no slot for a page whose client went away before it reached the gate', () => {
    const limits = { inProgress: 1, waiting: 4, loopPercent: 100 };
    const started: string[] = [];
    // the client left while the page guard awaited the database: Node emitted 'close' then
    const left = response();
    (left as unknown as { destroyed: boolean }).destroyed = true;
    left.emit('close');
    enterPageGate(
      left,
      () => started.push('left'),
      'page:ip:a',
      () => started.push('refused'),
      limits,
    );
    expect(pageGateState()).toEqual({ running: 0, waiting: 0 });
    const next = response();
    enterPageGate(
      next,
      () => started.push('next'),
      'page:ip:b',
      () => started.push('refused'),
      limits,
    );
    expect(started).toEqual(['next']);
    next.close();
    expect(pageGateState()).toEqual({ running: 0, waiting: 0 });
  });

  it('gives a slot back after MAX_HOLD_MS to a response that never closes (a client that stopped reading)', () => {
    vi.useFakeTimers();
    try {
      const limits = { inProgress: 1, waiting: 4, loopPercent: 100 };
      const started: string[] = [];
      const [stalled, next] = [response(), response()];
      enterPageGate(
        stalled,
        () => started.push('stalled'),
        'page:ip:a',
        () => started.push('refused'),
        limits,
      );
      enterPageGate(
        next,
        () => started.push('next'),
        'page:ip:b',
        () => started.push('refused'),
        limits,
      );
      expect(started).toEqual(['stalled']);
      vi.advanceTimersByTime(MAX_HOLD_MS - 1);
      expect(started).toEqual(['stalled']);
      vi.advanceTimersByTime(1);
      expect(started).toEqual(['stalled', 'next']);
      expect(pageGateState()).toEqual({ running: 1, waiting: 0 });
      stalled.close(); // closing at last gives nothing back twice
      expect(pageGateState()).toEqual({ running: 1, waiting: 0 });
      next.close();
      expect(pageGateState()).toEqual({ running: 0, waiting: 0 });
    } finally {
      vi.useRealTimers();
    }
  });

  it('lets every page through at once when switched off (0)', () => {
    const started: number[] = [];
    for (let i = 0; i < 10; i++)
      enterPageGate(
        response(),
        () => started.push(i),
        'page:ip:a',
        () => started.push(-1),
        { inProgress: 0, waiting: 0, loopPercent: 100 },
      );
    expect(started).toHaveLength(10);
    expect(pageGateState()).toEqual({ running: 0, waiting: 0 });
  });

  it('starts a render beyond the first only while the loop was busy less than the share', async () => {
    const limits = { inProgress: 4, waiting: 8, loopPercent: 60 };
    let busy = 0.9;
    const meter = () => busy;
    const started: number[] = [];
    const res = Array.from({ length: 3 }, () => response());
    res.forEach((r, i) =>
      enterPageGate(
        r,
        () => started.push(i),
        'page:ip:a',
        () => started.push(-1),
        limits,
        meter,
      ),
    );
    expect(started).toEqual([0]); // the first always starts: pages never stop altogether
    expect(pageGateState()).toEqual({ running: 1, waiting: 2 });
    await new Promise((r) => setTimeout(r, 120));
    expect(started).toEqual([0]); // still busy: they wait
    busy = 0.2;
    await new Promise((r) => setTimeout(r, 120));
    expect(started).toEqual([0, 1, 2]); // the loop has time again: both start, in order
    for (const r of res) r.close();
    expect(pageGateState()).toEqual({ running: 0, waiting: 0 });
  });

  it("serves the line round robin between callers: a visitor waits for one of a flood's pages, not all", () => {
    const { log, open, enter } = gateLog({ inProgress: 1, waiting: 16, loopPercent: 100 });
    const first = enter('page:ip:flood', 'f0');
    for (let i = 1; i <= 5; i++) enter('page:ip:flood', `f${i}`);
    enter('page:user:visitor', 'v');
    first.close();
    open[1]!.close();
    expect(log).toEqual(['start f0', 'start f1', 'start v']);
    for (const r of open) r.close();
    expect(pageGateState()).toEqual({ running: 0, waiting: 0 });
  });

  it('in a full line, the caller with the most pages waiting gives its newest to a caller with fewer', () => {
    const { log, open, enter } = gateLog({ inProgress: 1, waiting: 3, loopPercent: 100 });
    for (let i = 0; i < 4; i++) enter('page:ip:flood', `f${i}`); // one runs, three fill the line
    enter('page:ip:flood', 'f4'); // the flood's own: refused
    enter('page:ip:visitor', 'v'); // the flood's newest gives way
    expect(log).toEqual(['start f0', 'refused f4', 'refused f3']);
    expect(pageGateState()).toEqual({ running: 1, waiting: 3 });
    open[0]!.close();
    open[1]!.close();
    expect(log.slice(3)).toEqual(['start f1', 'start v']);
    for (const r of open) r.close();
    expect(pageGateState()).toEqual({ running: 0, waiting: 0 });
  });

  it('answers a page that waited MAX_WAIT_MS', () => {
    vi.useFakeTimers();
    try {
      const limits = { inProgress: 1, waiting: 4, loopPercent: 100 };
      const log: string[] = [];
      const res = ['a', 'b', 'c'].map((name) => {
        const r = response();
        enterPageGate(
          r,
          () => log.push(`start ${name}`),
          `page:ip:${name}`,
          () => log.push(`refused ${name}`),
          limits,
        );
        return r;
      });
      // a holds the slot (a client that stopped reading) until MAX_HOLD_MS; then b starts
      vi.advanceTimersByTime(MAX_HOLD_MS);
      expect(log).toEqual(['start a', 'start b']);
      vi.advanceTimersByTime(MAX_WAIT_MS - MAX_HOLD_MS - 1);
      expect(log).toEqual(['start a', 'start b']);
      vi.advanceTimersByTime(1);
      expect(log).toEqual(['start a', 'start b', 'refused c']);
      expect(pageGateState()).toEqual({ running: 1, waiting: 0 });
      for (const r of res) r.close();
      expect(pageGateState()).toEqual({ running: 0, waiting: 0 });
    } finally {
      vi.useRealTimers();
    }
  });

  it('while pages wait, rests after each render so that renders take at most their share of the time', () =>
    onFakeClock(() => {
      const { log, open, enter } = gateLog({ inProgress: 1, waiting: 8, loopPercent: 100, sharePercent: 50 });
      enter('page:ip:a', 'a');
      enter('page:ip:b', 'b');
      vi.advanceTimersByTime(40);
      open[0]!.close(); // a took 40 ms while b waited: b starts 40 ms later (a 50 % share)
      expect(log).toEqual(['start a']);
      vi.advanceTimersByTime(39);
      expect(log).toEqual(['start a']);
      vi.advanceTimersByTime(2);
      expect(log).toEqual(['start a', 'start b']);
      // a page that arrives during a rest waits for its end too
      enter('page:ip:c', 'c');
      vi.advanceTimersByTime(MAX_HOLD_MS); // b held its slot 10 s (a client that stopped reading): the rest is at most MAX_REST_MS
      expect(log).toEqual(['start a', 'start b']);
      vi.advanceTimersByTime(MAX_REST_MS + 1);
      expect(log).toEqual(['start a', 'start b', 'start c']);
      // nobody waited when c ended: the next page starts at once
      vi.advanceTimersByTime(100);
      open[2]!.close();
      enter('page:ip:d', 'd');
      expect(log).toEqual(['start a', 'start b', 'start c', 'start d']);
      for (const r of open) r.close();
      expect(pageGateState()).toEqual({ running: 0, waiting: 0 });
    }));

  it('never rests with the share at 100 (off)', () =>
    onFakeClock(() => {
      const { log, open, enter } = gateLog({ inProgress: 1, waiting: 8, loopPercent: 100, sharePercent: 100 });
      enter('page:ip:a', 'a');
      enter('page:ip:b', 'b');
      vi.advanceTimersByTime(40);
      open[0]!.close();
      expect(log).toEqual(['start a', 'start b']);
      for (const r of open) r.close();
    }));
});
