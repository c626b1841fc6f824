// The pool and its worker processes exchange frames through a pipe (lane.ts), and their
// replies often come back within tens of microseconds (a warm tool call, the answer to a
// host call, the next call of an agent's loop). Waking a process that sleeps in epoll costs more than that on small
// virtual machines (an interrupt to a halted CPU: most of the ~70 µs pipe round trip
// measured here). So after a side sends a frame it expects an answer to, it polls its
// pipes for a short, adaptive while before it goes back to sleep in the event loop:
//   - a poll that hears a frame keeps the full budget (`maxUs`);
//   - a poll that hears nothing halves it, so a side whose traffic is sparse soon stops
//     polling (a few misses, then nothing);
//   - a frame that arrives through the event loop soon after the side went idle (a poll
//     would have heard it) raises the budget again.
// Polling runs in a setImmediate callback, after the side's own promise jobs; timers wait
// at most `maxUs`. A `gate` can veto a poll: nobody polls while tasks
// wait for a CPU (cpuNotContended: polling would take their time), and the web process
// polls only while its event loop is mostly idle (loopMostlyIdle). Not on Windows.
import { openSync, readSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';

/** Something a side polls: a lane (lane.ts), or in tests a bare pipe. */
export type PollSource = {
  /** takes what has arrived, without waiting, and delivers it: true when something (or the end) was heard */
  poll(): boolean;
};

export type IdleSpin = {
  /** a frame was sent and an answer is expected: poll soon */
  idle(): void;
  /** a frame arrived through the event loop */
  heard(): void;
  /** the current budget in µs */
  readonly budgetUs: number;
};

/** below this a poll is not worth starting */
const MIN_US = 8;
const EAGAIN = 'EAGAIN';
const readBuffer = Buffer.allocUnsafe(64 * 1024);

/**
 * A pipe as a poll source: a non-blocking read of `fd()` (-1: nothing to read), whose
 * bytes go to `onBytes` as a view of a buffer reused by the next read.
 */
export function pipeSource(fd: () => number, onBytes: (chunk: Buffer) => void): PollSource {
  return {
    poll() {
      const d = fd();
      if (d < 0) return false;
      let n: number;
      try {
        n = readSync(d, readBuffer, 0, readBuffer.length, null);
      } catch (error) {
        // any other error is the event loop's to report (it reads the same pipe)
        return (error as NodeJS.ErrnoException).code !== EAGAIN;
      }
      // n === 0: end of file, which the event loop reports on its own read
      if (n > 0) onBytes(readBuffer.subarray(0, n));
      return true;
    },
  };
}

export type PollGate = { check(): boolean; exclude(ms: number): void };

export function createIdleSpin(options: { sources: () => Iterable<PollSource>; maxUs: number; gate?: PollGate }): IdleSpin {
  const { sources, maxUs, gate } = options;
  let budget = maxUs;
  let scheduled: NodeJS.Immediate | null = null;
  let idleSince = 0n;
  const enabled = maxUs >= MIN_US && process.platform !== 'win32';

  const poll = () => {
    scheduled = null;
    if (budget < MIN_US || (gate && !gate.check())) return;
    const list = [...sources()];
    if (list.length === 0) return; // nothing is expected
    const started = process.hrtime.bigint();
    const until = started + BigInt(Math.round(budget * 1000));
    // EAGAIN is thrown as an error: without stack traces a pipe read costs ~3 µs instead of ~6
    const traces = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    let heard = false;
    try {
      outer: do {
        for (const source of list) {
          if (source.poll()) {
            heard = true;
            break outer;
          }
        }
      } while (process.hrtime.bigint() < until);
    } finally {
      Error.stackTraceLimit = traces;
      gate?.exclude(Number(process.hrtime.bigint() - started) / 1e6);
    }
    budget = heard ? maxUs : Math.floor(budget / 2);
  };

  return {
    idle() {
      if (!enabled) return;
      idleSince = process.hrtime.bigint();
      scheduled ??= setImmediate(poll);
    },
    heard() {
      if (!enabled || idleSince === 0n) return;
      const gapUs = Number(process.hrtime.bigint() - idleSince) / 1000;
      if (gapUs < maxUs) budget = Math.min(maxUs, Math.max(budget * 2, MIN_US * 2, gapUs * 2));
    },
    get budgetUs() {
      return budget;
    },
  };
}

/**
 * True while this process's event loop spent at most `threshold` of the last window
 * running callbacks (not counting `excludedMs`, the polling itself): a poll then takes
 * time nobody else wanted, and a busy loop wakes cheaply anyway (its CPU is not halted).
 */
export function loopMostlyIdle(threshold = 0.8, windowMs = 5): PollGate {
  let mark = performance.eventLoopUtilization();
  let excluded = 0;
  let idle = true;
  let since = performance.now();
  return {
    check() {
      const now = performance.now();
      if (now - since >= windowMs) {
        const d = performance.eventLoopUtilization(mark);
        const active = Math.max(0, d.active - excluded);
        idle = active <= threshold * Math.max(1e-6, d.active + d.idle);
        mark = performance.eventLoopUtilization();
        excluded = 0;
        since = now;
      }
      return idle;
    },
    exclude(ms) {
      excluded += ms;
    },
  };
}

/**
 * True while (nearly) no task waits for a CPU: the running count of /proc/loadavg (read at
 * most every `everyMs`) is at most the number of CPUs plus one, so a poll takes time nobody
 * else wants (under an attack or any other load it is not, and polling would only make it
 * worse).
 * Without /proc (not Linux) always true.
 */
export function cpuNotContended(everyMs = 5): PollGate {
  const fd = loadavgFd();
  if (fd < 0) return { check: () => true, exclude: () => {} };
  const cpus = availableParallelism();
  const buffer = Buffer.alloc(128);
  let free = true;
  let at = 0;
  return {
    check() {
      const now = performance.now();
      if (now - at < everyMs) return free;
      at = now;
      try {
        const text = buffer.toString('latin1', 0, readSync(fd, buffer, 0, buffer.length, 0));
        // "0.52 0.58 0.59 2/345 12345": running/total scheduling entities, this one included
        const running = Number(/ (\d+)\//.exec(text)?.[1] ?? 0);
        // one over: the two sides of a round trip each hold a CPU, and a third task that
        // woke for a moment (a timer, the kernel) should not stop a tight loop's polling
        free = running <= cpus + 1;
      } catch {
        free = true;
      }
      return free;
    },
    exclude: () => {},
  };
}

/** /proc/loadavg, opened once per process and kept (-1 where there is none). */
let loadavg: number | null = null;
function loadavgFd(): number {
  if (loadavg === null) {
    try {
      loadavg = openSync('/proc/loadavg', 'r');
    } catch {
      loadavg = -1;
    }
  }
  return loadavg;
}

const MAX_SPIN_US = 5_000;

/** The polling budget from an option or SKILLYARD_SANDBOX_SPIN_US: 0 – 5,000 µs, 200 when unset or not a number. */
export function spinBudgetUs(value: number | string | undefined): number {
  const n = typeof value === 'string' ? (value.trim() === '' ? NaN : Number(value)) : (value ?? NaN);
  if (Number.isNaN(n)) return 200;
  return Math.min(MAX_SPIN_US, Math.max(0, Math.round(n)));
}

/**
 * A worker's budget for a pool budget of `poolUs`: five times as long (at most 5,000 µs).
 * Polling blocks only the worker's own event loop, which serves nobody but the pool, and
 * a worker that waits longer for the next frame misses fewer of them in a caller's tight
 * loop (measured: 24× → 21× the synchronous call with bench/invoke's pairing).
 */
export function workerSpinBudgetUs(poolUs: number): number {
  return Math.min(MAX_SPIN_US, poolUs * 5);
}

/** A gate that allows a poll when every one of `gates` does. */
export function allGates(...gates: PollGate[]): PollGate {
  return {
    check: () => gates.every((g) => g.check()),
    exclude: (ms) => gates.forEach((g) => g.exclude(ms)),
  };
}
