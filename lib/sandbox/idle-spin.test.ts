// The adaptive pipe poll (idle-spin.ts) on a real pipe: a child's stdout, written by the
// child when the test asks it to on stdin.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { allGates, cpuNotContended, createIdleSpin, loopMostlyIdle, pipeSource, spinBudgetUs, workerSpinBudgetUs, type PollSource } from './idle-spin';

let child: ChildProcessWithoutNullStreams | null = null;
afterEach(() => {
  child?.kill('SIGKILL');
  child = null;
});

/** A child that echoes each stdin chunk to stdout; its stdout pipe as a poll source. */
function echo(): { write(text: string): void; source: PollSource; heard: string[]; eventLoop: string[]; up: Promise<void> } {
  // the child says on stderr that it listens, so that the stdout pipe under test carries only echoes
  child = spawn(process.execPath, ['-e', "process.stdin.on('data', (d) => process.stdout.write(d)); process.stderr.write('up')"], { stdio: 'pipe' });
  const up = new Promise<void>((resolve) => child!.stderr.once('data', () => resolve()));
  const heard: string[] = [];
  const eventLoop: string[] = [];
  child.stdout.on('data', (d: Buffer) => eventLoop.push(d.toString()));
  const handle = (child.stdout as unknown as { _handle: { fd: number } })._handle;
  const proc = child;
  return {
    write: (text) => proc.stdin.write(text),
    source: pipeSource(
      () => handle.fd,
      (chunk) => heard.push(chunk.toString()),
    ),
    heard,
    eventLoop,
    up,
  };
}
const immediate = () => new Promise((resolve) => setImmediate(resolve));
const settle = (ms = 50) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(process.platform === 'win32')('idle spin', () => {
  it('hears a frame sent back while it polls, without the event loop', async () => {
    const pipe = echo();
    // the child is up when it says so (a fixed wait was too short on a loaded machine)
    await pipe.up;
    // a budget long enough for a process round trip on a loaded machine (CI runs many test files at once)
    const spin = createIdleSpin({ sources: () => [pipe.source], maxUs: 10_000_000 });
    pipe.write('ping');
    spin.idle();
    await immediate();
    expect(pipe.heard).toEqual(['ping']);
    expect(pipe.eventLoop).toEqual([]);
    expect(spin.budgetUs).toBe(10_000_000);
  });

  it('halves its budget on each poll that hears nothing, and stops below a few µs', async () => {
    const pipe = echo();
    const spin = createIdleSpin({ sources: () => [pipe.source], maxUs: 100 });
    const budgets: number[] = [];
    for (let i = 0; i < 6; i++) {
      spin.idle();
      await immediate();
      budgets.push(spin.budgetUs);
    }
    expect(budgets).toEqual([50, 25, 12, 6, 6, 6]);
    expect(pipe.heard).toEqual([]);
  });

  it('raises the budget again when a frame arrives through the event loop soon after going idle', async () => {
    const pipe = echo();
    const spin = createIdleSpin({ sources: () => [], maxUs: 10_000 });
    // no source owes anything: the poll returns at once and keeps its budget
    spin.idle();
    await immediate();
    expect(spin.budgetUs).toBe(10_000);
    // 20 ms, halved by misses to below the minimum (~40 ms of polling in all)
    const sparse = createIdleSpin({ sources: () => [pipe.source], maxUs: 20_000 });
    for (let i = 0; i < 13; i++) {
      sparse.idle();
      await immediate();
    }
    expect(sparse.budgetUs).toBe(4);
    // a frame arrived right after going idle: polling would have heard it (tried a few
    // times: a loaded machine may deschedule this process for longer than the 20 ms between)
    for (let tries = 0; tries < 5; tries++) {
      sparse.idle();
      sparse.heard();
      if (sparse.budgetUs >= 16) break;
      await immediate();
    }
    expect(sparse.budgetUs).toBeGreaterThanOrEqual(16);
    await immediate();
  });

  it('does not poll while the gate says the event loop is busy, nor with a budget of 0', async () => {
    const pipe = echo();
    await settle(300);
    const gated = createIdleSpin({ sources: () => [pipe.source], maxUs: 200_000, gate: { check: () => false, exclude: () => {} } });
    const off = createIdleSpin({ sources: () => [pipe.source], maxUs: 0 });
    pipe.write('one');
    gated.idle();
    off.idle();
    await immediate();
    expect(pipe.heard).toEqual([]);
    for (let i = 0; i < 500 && pipe.eventLoop.length === 0; i++) await settle(10);
    expect(pipe.eventLoop.join('')).toBe('one');
  });

  it('never reads a pipe whose descriptor is gone (-1)', async () => {
    const spin = createIdleSpin({
      sources: () => [
        pipeSource(
          () => -1,
          () => expect.unreachable(),
        ),
      ],
      maxUs: 1_000,
    });
    spin.idle();
    await immediate();
    expect(spin.budgetUs).toBe(500);
  });
});

describe('loopMostlyIdle', () => {
  it('is idle while the loop waits, busy while callbacks hold it, and does not count the polling itself', async () => {
    const gate = loopMostlyIdle(0.5, 20);
    await settle(30);
    expect(gate.check()).toBe(true);
    const until = performance.now() + 40;
    while (performance.now() < until);
    await settle(0);
    expect(gate.check()).toBe(false);
    // the same busy time, declared as polling, leaves the loop idle
    await settle(25);
    gate.check();
    const again = performance.now() + 40;
    while (performance.now() < again);
    gate.exclude(40);
    await settle(0);
    expect(gate.check()).toBe(true);
  });
});

describe('gates', () => {
  it('allGates allows a poll only when every gate does, and tells each the time polled', () => {
    const excluded: number[] = [];
    const gate = (open: boolean) => ({ check: () => open, exclude: (ms: number) => excluded.push(ms) });
    expect(allGates(gate(true), gate(true)).check()).toBe(true);
    expect(allGates(gate(true), gate(false)).check()).toBe(false);
    allGates(gate(true), gate(false)).exclude(3);
    expect(excluded).toEqual([3, 3]);
  });

  it('cpuNotContended reads the run queue at most once per window', () => {
    const gate = cpuNotContended(60_000);
    const first = gate.check();
    expect(typeof first).toBe('boolean');
    for (let i = 0; i < 100; i++) expect(gate.check()).toBe(first);
  });
});

describe('spinBudgetUs', () => {
  it('reads the option or SKILLYARD_SANDBOX_SPIN_US into 0 – 5,000 µs (200 when unset or not a number)', () => {
    expect([undefined, '', 'abc', 'NaN'].map(spinBudgetUs)).toEqual([200, 200, 200, 200]);
    expect(['0', '-5', '150', '150.6', 'Infinity', '1e7'].map(spinBudgetUs)).toEqual([0, 0, 150, 151, 5000, 5000]);
    expect([0, 300, Infinity, -Infinity].map(spinBudgetUs)).toEqual([0, 300, 5000, 0]);
  });
  it("a worker polls five times the pool's budget, at most 5,000 µs, and never when the pool does not", () => {
    expect([0, 200, 1000, 5000].map(workerSpinBudgetUs)).toEqual([0, 1000, 5000, 5000]);
  });
});
