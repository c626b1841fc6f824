// A sandbox worker runs guest segments synchronously on its main thread. If V8 fails to
// stop one (a builtin that ignores termination, a collector thrashing near the heap
// limit), nothing on that thread can react, so a second thread watches: the main thread
// publishes the running job and the time by which isolated-vm must have stopped it; past
// that time plus a grace, the watchdog names the job to the pool (a frame written straight
// to the pipe) and kills the process. The pool fails that job and retries the others.
import { Worker } from 'node:worker_threads';

export const WATCHDOG_GRACE_MS = 1_000;
const TICK_MS = 50;

// Runs in the watchdog thread (CommonJS eval). Frame format as in frame.ts.
const WATCHDOG_SOURCE = `
const { workerData } = require('node:worker_threads');
const fs = require('node:fs');
const { shared, fd, grace, tick } = workerData;
const slot = new Float64Array(shared);
setInterval(() => {
  const deadline = slot[0];
  if (deadline === 0 || Date.now() <= deadline + grace) return;
  const json = JSON.stringify({ t: 'fatal', j: slot[1] || undefined, message: 'the guest did not stop at its deadline (' + Math.round(Date.now() - deadline) + ' ms late); the worker was killed' });
  const body = Buffer.from(json);
  const frame = Buffer.alloc(4 + body.length);
  frame.writeUInt32LE(body.length, 0);
  body.copy(frame, 4);
  try { fs.writeSync(fd, frame); } catch {}
  process.kill(process.pid, 'SIGKILL');
}, tick);
`;

export type Watchdog = { arm(jobId: number, deadline: number): void; disarm(): void };

export function startWatchdog(fd: number, graceMs = WATCHDOG_GRACE_MS): Watchdog {
  const shared = new SharedArrayBuffer(16);
  const slot = new Float64Array(shared);
  const thread = new Worker(WATCHDOG_SOURCE, { eval: true, workerData: { shared, fd, grace: graceMs, tick: TICK_MS } });
  thread.unref();
  return {
    arm(jobId, deadline) {
      slot[1] = jobId;
      slot[0] = deadline;
    },
    disarm() {
      slot[0] = 0;
    },
  };
}
