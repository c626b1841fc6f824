// Entry of a sandbox worker process (forked by pool.ts; built into dist/sandbox/worker.mjs
// and run with --no-node-snapshot). It owns one engine and runs guest code synchronously
// on its main thread, one segment at a time, under a watchdog thread. Frames come and go
// on the pipe on fd 3 (lane.ts); guest host calls are forwarded to the parent. A catastrophic
// isolate error or a missed deadline ends this process, and the pool starts a fresh one.
import { writeSync } from 'node:fs';
import { Socket } from 'node:net';
import { SandboxEngine, type RawResult } from './engine';
import { encodeFrame } from './frame';
import type { FromWorker, JobFrame, ToWorker } from './protocol';
import { cpuNotContended, createIdleSpin, spinBudgetUs } from './idle-spin';
import { pipeLane } from './lane';
import type { SandboxJob } from './types';
import { startWatchdog } from './watchdog';
import { setting } from '../config';

const FD = 3;
const channel = new Socket({ fd: FD, readable: true, writable: true });
const send = (message: FromWorker) => {
  if (channel.destroyed) return;
  lane.send(encodeFrame(message));
  spin.idle();
};
const die = () => process.kill(process.pid, 'SIGKILL');
/** the last word before dying, written at once (the pool reads it after the exit) */
const fatal = (message: string, j?: number) => {
  try {
    writeSync(FD, encodeFrame({ t: 'fatal', message, j } satisfies FromWorker));
  } finally {
    die();
  }
};

/** the worker's job id of each running job object (to name the culprit) */
const jobIds = new WeakMap<object, number>();
const watchdog = startWatchdog(FD);

// V8 lost control of an isolate: this process must go now. process.exit() can hang behind
// the stuck isolate thread, so the worker names the culprit and kills itself.
const engine = new SandboxEngine({
  maxIdleIsolates: setting('SKILLYARD_SANDBOX_MAX_IDLE'),
  spareIsolates: setting('SKILLYARD_SANDBOX_SPARES'),
  onCatastrophicError: (message, job) => fatal(message, job ? jobIds.get(job) : undefined),
  onSegment: (job, deadline) => {
    if (job) watchdog.arm(jobIds.get(job) ?? 0, deadline);
    else watchdog.disarm();
  },
});

type OpenCall = { j: number; resolve: (json: string | undefined) => void; reject: (error: unknown) => void };
let lastCall = 0;
const calls = new Map<number, OpenCall>();
/** running jobs by the pool's job id (for a cancel frame) */
const cancels = new Map<number, SandboxJob>();
const sources = new Map<number, string>();
const preludes = new Map<number, string>();

function runJob(f: JobFrame): void {
  if (f.x) {
    sources.clear();
    preludes.clear();
  }
  if (f.s !== undefined) sources.set(f.c, f.s);
  if (f.p !== undefined) preludes.set(f.pi, f.p);
  const source = sources.get(f.c);
  const prelude = f.pi === 0 ? undefined : preludes.get(f.pi);
  if (source === undefined || (f.pi !== 0 && prelude === undefined)) {
    send({ t: 'res', j: f.j, r: { ok: false, error: { code: 'sandbox/host-error', message: 'the sandbox worker lost the job source' } } });
    return;
  }
  // host calls this job has open (made only when it calls its host)
  let open: number[] | null = null;
  const job: SandboxJob = { key: f.k, source, prelude, entry: f.e, args: [], hostMethods: f.m, limits: f.l, ...(f.q ? { principal: f.q } : {}) };
  cancels.set(f.j, job);
  jobIds.set(job, f.j);
  const hostCall = (m: string, a: string) =>
    new Promise<string | undefined>((resolve, reject) => {
      const c = ++lastCall;
      calls.set(c, { j: f.j, resolve, reject });
      (open ??= []).push(c);
      send({ t: 'hc', j: f.j, c, m, a });
    });
  const finish = (r: RawResult) => {
    if (open) for (const c of open) calls.delete(c);
    cancels.delete(f.j);
    send({ t: 'res', j: f.j, r });
  };
  engine.runEncoded(job, hostCall, f.a, f.g, f.r).then(finish);
}

function onMessage(raw: unknown): void {
  const message = raw as ToWorker;
  if (message.t === 'job') return runJob(message);
  if (message.t === 'cancel') {
    const job = cancels.get(message.j);
    if (job) engine.cancel(job);
    return;
  }
  if (message.t === 'hr') {
    const call = calls.get(message.c);
    if (!call) return;
    calls.delete(message.c);
    if (message.ok) call.resolve(message.v);
    else call.reject(JSON.parse(message.v ?? '{"message":"host call failed"}'));
  }
}

const lane = pipeLane({ channel, fd: () => FD, onFrame: onMessage, onBroken: () => die() });
const lanes = [lane];
// after each frame it sends, the worker polls its lane briefly (idle-spin.ts)
const spin = createIdleSpin({ sources: () => lanes, maxUs: spinBudgetUs(setting('SKILLYARD_SANDBOX_SPIN_US')), gate: cpuNotContended() });
channel.on('data', (chunk: Buffer) => {
  spin.heard();
  lane.fromPipe(chunk);
});
// The parent went away: nobody can use our results, and we must not outlive it.
channel.on('end', () => process.exit(0));
channel.on('close', () => process.exit(0));
channel.on('error', () => process.exit(0));

try {
  engine.prewarm();
} catch {
  // no spare isolate: cold jobs make their own
}
send({ t: 'ready', pid: process.pid });
