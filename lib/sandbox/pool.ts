// The Sandbox used by the server: a pool of worker processes, each running many jobs in
// its own isolates. A catastrophic isolate failure costs one worker (restarted), never
// the caller's process, and the other callers' jobs on that worker are retried on a
// healthy one. Jobs with the same key go to the worker that ran the key last, so they
// find their warm isolate there. Waiting jobs queue fairly per principal (fair-queue.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import type { Duplex } from 'node:stream';
import { CANCELLED, callHandlerRaw, decodeRawResult, hostErrorJson, validateJob } from './engine';
import { setting } from '../config';
import { reportFailure } from '../log';
import { failed } from './errors';
import { FairQueue, principalOf } from './fair-queue';
import { Confinement, HEAVY_CPU_MS, heavyWorkerCap } from './confinement';
import { ColdBudget } from './cold-budget';
import { processCpuMs } from './process-cpu';
import { encodeFrame } from './frame';
import { allGates, cpuNotContended, createIdleSpin, loopMostlyIdle, spinBudgetUs, workerSpinBudgetUs, type IdleSpin } from './idle-spin';
import { pipeLane, type Lane, type LaneEnds } from './lane';
import { createInProcessSandbox } from './in-process';
import { resolveLimits } from './limits';
import { isFromWorker, type FromWorker, type JobFrame, type ToWorker } from './protocol';
import { poolSizing } from './sizing';
import type { HostCallHandler, Sandbox, SandboxJob, SandboxLimits, SandboxResult } from './types';
import { resolveWorkerFile, sandboxRoot, workerExecArgv } from './worker-build';

export { resolveWorkerFile } from './worker-build';

export type SandboxPoolOptions = {
  /** worker processes (default: CPUs, at most 8, fewer when memory is short; env SKILLYARD_SANDBOX_WORKERS) */
  workers?: number;
  /** jobs waiting for a free slot before `sandbox/queue-full` (default 32 per slot; env SKILLYARD_SANDBOX_QUEUE) */
  queueLimit?: number;
  /** jobs one principal may have waiting (default queueLimit / 8, at least 8; env SKILLYARD_SANDBOX_QUEUE_PER_CALLER) */
  perPrincipalQueueLimit?: number;
  /** refuse a job whose estimated wait for a slot is longer (default 5000 ms; env SKILLYARD_SANDBOX_MAX_QUEUE_WAIT_MS) */
  maxQueueWaitMs?: number;
  /** limits for jobs that do not set their own */
  defaultLimits?: SandboxLimits;
  /** run isolates in this process instead of workers (benchmarks, CLI) */
  inProcess?: boolean;
  /** jobs one worker runs at once (default 4; env SKILLYARD_SANDBOX_CONCURRENCY) */
  concurrency?: number;
  /** idle warm isolates kept per worker (default 32) */
  maxIdleIsolates?: number;
  /** new isolates one principal may have made per second, twice that at once (default 10; 0 = no limit; env SKILLYARD_SANDBOX_COLD_STARTS_PER_SECOND; cold-budget.ts) */
  coldStartsPerSecond?: number;
  /** blank isolates kept ready per worker for cold jobs (default 1) */
  spareIsolates?: number;
  /**
   * µs a worker polls its pipe after answering, and the pool its workers' pipes after
   * sending (while its event loop is mostly idle), before sleeping: default 200, 0 = never;
   * env SKILLYARD_SANDBOX_SPIN_US; see idle-spin.ts
   */
  spinUs?: number;
  /** worker entry file; default the built dist/sandbox/worker.mjs (built from lib/sandbox/worker.ts when stale) */
  workerFile?: string;
};

export type SandboxPoolStats = {
  /** worker processes (not counting the reserve) */
  workers: number;
  ready: number;
  /** the reserve worker is up (pools of two workers or more keep one: WorkerPool.reserveOpen) */
  reserve?: boolean;
  running: number;
  queued: number;
  restarts: number;
  retried: number;
  /** how frames travel to the workers (lane.ts); no workers in process */
  lane: 'pipe' | 'in-process';
};

export interface SandboxPool extends Sandbox {
  stats(): SandboxPoolStats;
  /** process ids of the live workers (empty in-process) */
  workerPids(): number[];
}

type Worker = {
  child: ChildProcess;
  channel: Duplex;
  /** frames to and from the worker (lane.ts), also what the pool polls (idle-spin.ts) */
  lane: Lane;
  pid: number;
  ready: boolean;
  alive: boolean;
  jobs: Map<number, Pending>;
  culprit: number | null;
  why: string | null;
  /** it sent its `fatal` frame */
  fatal: boolean;
  /** sources and preludes this worker has been sent, by id (see protocol.ts) */
  codes: Map<string, number>;
  /** its place among the pool's workers, 0..workers-1 (a replacement takes its place); `workers` for the reserve */
  place: number;
  /** the job holding it in a long segment, and the worker's CPU time when that was first seen */
  hog: { job: number; cpuMs: number; checkedAt: number } | null;
};
type Pending = {
  id: number;
  job: SandboxJob;
  principal: string;
  handler: HostCallHandler;
  resolve: (result: SandboxResult) => void;
  worker: Worker | null;
  timer: NodeJS.Timeout | null;
  done: boolean;
  /** host calls of this job still unanswered */
  hostCalls: number;
  /** host calls ever started: a job that made one is not re-run after a crash (side effects) */
  hostCallsMade: number;
  /** workers this job was started on */
  attempts: number;
  startedAt: number;
  parkedSince: number;
  parkedMs: number;
  /** when its current segment began: its start, or the answer to its last host call */
  segmentAt: number;
};

/** Grace on top of a job's wallMs before the pool gives up on a silent worker and kills it. */
export const WORKER_GRACE_MS = 1_000;
/** a job is started on at most this many workers (the first crashed under it) */
const MAX_ATTEMPTS = 2;
const MAX_AFFINITY = 10_000;
/** a job running this long without waiting on its host is taken to hold its worker in one long segment */
const LONG_SEGMENT_MS = 20;
const CRASH_WINDOW_MS = 10_000;
const CRASHES_BEFORE_BACKOFF = 5;
const STARTUP_FAILURES_BEFORE_GIVING_UP = 5;
const MIN_RETRY_AFTER_MS = 1_000;
/** sources + preludes remembered per worker before both sides start their tables over */
const MAX_CODES_PER_WORKER = 512;
const MAX_RETRY_AFTER_MS = 60_000;
/** how often the pool looks again while a light job waits and every worker may be in a long segment */
const RESERVE_CHECK_MS = 25;
/** how often a worker held in a long segment has its CPU time read */
const HOG_CHECK_MS = 50;

/** The descriptor under a child's pipe (libuv's handle), or -1: then the pool never polls it. */
function pipeFd(channel: Duplex): number {
  const fd = (channel as unknown as { _handle?: { fd?: unknown } })._handle?.fd;
  return typeof fd === 'number' && fd >= 0 ? fd : -1;
}

/** Only what node needs: never the server's secrets. */
function workerEnv(): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { SKILLYARD_SANDBOX_WORKER: '1' };
  for (const name of ['PATH', 'NODE_ENV', 'TZ', 'TMPDIR', 'TMP', 'TEMP', 'SystemRoot']) {
    // eslint-disable-next-line no-restricted-properties -- the operating system's variables passed on to the child, not settings
    if (process.env[name] !== undefined) env[name] = process.env[name];
  }
  return env;
}

export function createSandboxPool(opts: SandboxPoolOptions = {}): SandboxPool {
  const sizing = poolSizing(opts);
  if (opts.inProcess) {
    return createInProcessSandbox({
      slots: sizing.workers * sizing.concurrency,
      queueLimit: sizing.queueLimit,
      defaultLimits: opts.defaultLimits,
      maxIdleIsolates: opts.maxIdleIsolates,
      spareIsolates: opts.spareIsolates,
    });
  }
  return new WorkerPool(resolveWorkerFile(opts.workerFile), sizing, opts);
}

class WorkerPool implements SandboxPool {
  private readonly live = new Set<Worker>();
  private readonly queue = new FairQueue<Pending>();
  private readonly affinity = new Map<string, Worker>();
  /** callers whose jobs went heavy, kept off the last free workers (confinement.ts) */
  private readonly confinement = new Confinement();
  private readonly crashes: number[] = [];
  private startupFailures = 0;
  private restarts = 0;
  private retried = 0;
  private lastId = 0;
  private closed = false;
  private broken: string | null = null;
  private readonly root: string;
  private readonly slots: number;
  /** moving average of the time a job holds a slot (ms), for the wait estimate */
  private slotMs = 0;
  private samples = 0;
  private readonly spinUs: number;
  /** after sending a job or a host call's answer, the pool polls the pipes of workers that owe it a frame */
  private readonly spin: IdleSpin;
  /** the extra worker for light jobs while every worker is held in a long segment (see `reserveOpen`) */
  private reserve: Worker | null = null;
  private reserveCheck: NodeJS.Timeout | null = null;
  /** cold starts per principal (cold-budget.ts); a cold job without one waits, and the pool looks again when one is due */
  private readonly coldBudget: ColdBudget;
  private coldCheck: NodeJS.Timeout | null = null;

  constructor(
    private readonly workerFile: string,
    private readonly sizing: ReturnType<typeof poolSizing>,
    private readonly opts: SandboxPoolOptions,
  ) {
    this.root = opts.workerFile ? process.cwd() : sandboxRoot();
    this.slots = sizing.workers * sizing.concurrency;
    const coldPerSecond = opts.coldStartsPerSecond ?? setting('SKILLYARD_SANDBOX_COLD_STARTS_PER_SECOND');
    this.coldBudget = new ColdBudget({ perSecond: coldPerSecond, burst: coldPerSecond * 2 });
    this.spinUs = spinBudgetUs(opts.spinUs ?? setting('SKILLYARD_SANDBOX_SPIN_US'));
    this.spin = createIdleSpin({ sources: () => this.owing(), maxUs: this.spinUs, gate: allGates(cpuNotContended(), loopMostlyIdle()) });
    for (let i = 0; i < sizing.workers; i++) this.spawn();
    if (sizing.workers > 1) this.reserve = this.spawn(sizing.workers);
  }

  run(job: SandboxJob, handler: HostCallHandler): Promise<SandboxResult> {
    if (this.closed) return Promise.resolve(failed('sandbox/closed', 'the sandbox is closed'));
    if (this.broken) return Promise.resolve(failed('sandbox/worker-crashed', this.broken));
    const invalid = validateJob(job);
    if (invalid) return Promise.resolve(failed('sandbox/host-error', `invalid sandbox job: ${invalid}`));
    if (job.signal?.aborted) return Promise.resolve(failed('sandbox/timeout', CANCELLED));
    return new Promise((resolve) => {
      const p: Pending = {
        id: ++this.lastId,
        job,
        principal: principalOf(job),
        handler,
        resolve,
        worker: null,
        timer: null,
        done: false,
        hostCalls: 0,
        hostCallsMade: 0,
        attempts: 0,
        startedAt: 0,
        parkedSince: 0,
        parkedMs: 0,
        segmentAt: 0,
      };
      if (job.signal) {
        const onAbort = () => this.cancel(p);
        job.signal.addEventListener('abort', onAbort, { once: true });
        p.resolve = (result) => {
          job.signal!.removeEventListener('abort', onAbort);
          resolve(result);
        };
      }
      // nobody waiting and a worker free: start at once
      if (this.queue.size === 0 && this.mayStart(p)) {
        this.markHogs(performance.now());
        const w = this.pick(job.key, p.principal, job.confined);
        if (w) return this.start(p, w);
      }
      const refused = this.admit(p);
      if (refused) return this.settle(p, refused);
      this.queue.push(p.principal, p);
      this.dispatch();
    });
  }

  /** Back-pressure: refuses a job that would wait too long or overfill the queue. */
  private admit(p: Pending): SandboxResult | null {
    const { queueLimit, perPrincipalQueueLimit, maxQueueWaitMs } = this.sizing;
    const wait = Math.max(this.estimatedWaitMs(p.principal), this.coldWaitMs(p));
    const retryAfterMs = Math.min(MAX_RETRY_AFTER_MS, Math.max(MIN_RETRY_AFTER_MS, Math.ceil(wait)));
    const refuse = (why: string): SandboxResult => ({ ok: false, error: { code: 'sandbox/queue-full', message: why, retryAfterMs } });
    if (this.queue.size >= queueLimit) return refuse(`the sandbox queue is full (${queueLimit} jobs waiting)`);
    if (this.queue.sizeOf(p.principal) >= perPrincipalQueueLimit) {
      return refuse(`this caller already has ${perPrincipalQueueLimit} sandbox jobs waiting`);
    }
    if (this.samples >= 8 && wait > maxQueueWaitMs) {
      return refuse(`the sandbox is overloaded (estimated wait ${Math.round(wait)} ms > ${maxQueueWaitMs} ms)`);
    }
    return null;
  }

  /**
   * Expected wait for a new job of `principal`: the jobs the fair queue serves before it
   * (not the whole queue: a flood from one caller must not get another caller refused as
   * "overloaded"), served by all slots at the average slot time.
   */
  private estimatedWaitMs(principal: string): number {
    return ((this.queue.aheadOf(principal) + 1) * this.slotMs) / Math.max(1, this.slots);
  }

  /** a cold job whose principal has no cold start left waits for its turn behind the principal's own waiting jobs */
  private coldWaitMs(p: Pending): number {
    if (this.mayStart(p)) return 0;
    return this.coldBudget.waitMs(p.principal) + this.coldBudget.intervalMs * this.queue.sizeOf(p.principal);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const p of this.queue.drain()) this.settle(p, failed('sandbox/closed', 'the sandbox was closed before the job ran'));
    const exits: Promise<void>[] = [];
    if (this.reserveCheck) clearTimeout(this.reserveCheck);
    if (this.coldCheck) clearTimeout(this.coldCheck);
    for (const w of this.live) {
      for (const p of w.jobs.values()) this.settle(p, failed('sandbox/closed', 'the sandbox was closed while the job ran'));
      w.jobs.clear();
      exits.push(new Promise((done) => (w.alive ? w.child.once('exit', () => done()) : done())));
      w.child.kill('SIGKILL');
    }
    await Promise.all(exits);
  }

  private cancel(p: Pending): void {
    if (p.done) return;
    // A started job stays its worker's until the worker answers: the worker reads the cancel
    // only between segments, so a job in an endless loop goes on holding it up to its CPU
    // limit. Its slot stays taken meanwhile (no other job is sent into the loop), and its
    // result, with the CPU it used, still marks its caller (confinement.ts).
    if (p.worker) this.send(p.worker, { t: 'cancel', j: p.id });
    else this.queue.remove(p.principal, p);
    this.settle(p, failed('sandbox/timeout', CANCELLED));
    this.dispatch();
  }

  stats(): SandboxPoolStats {
    let ready = 0;
    let running = 0;
    for (const w of this.live) {
      if (w.ready && w !== this.reserve) ready++;
      running += w.jobs.size;
    }
    const reserve = this.reserve?.ready ?? false;
    return { workers: this.regularLive(), ready, reserve, running, queued: this.queue.size, restarts: this.restarts, retried: this.retried, lane: 'pipe' };
  }

  workerPids(): number[] {
    return [...this.live].filter((w) => w.alive).map((w) => w.pid);
  }

  /** the lowest place no live worker holds */
  private freePlace(): number {
    const taken = new Set([...this.live].map((w) => w.place));
    let place = 0;
    while (taken.has(place)) place++;
    return place;
  }

  private spawn(place = this.freePlace()): Worker {
    const env: Record<string, string | undefined> = {
      ...workerEnv(),
      SKILLYARD_SANDBOX_MAX_IDLE: String(this.opts.maxIdleIsolates ?? 32),
      SKILLYARD_SANDBOX_SPARES: String(this.opts.spareIsolates ?? 1),
      SKILLYARD_SANDBOX_SPIN_US: String(workerSpinBudgetUs(this.spinUs)),
    };
    const child: ChildProcess = spawn(process.execPath, [...workerExecArgv(this.workerFile), this.workerFile], {
      cwd: this.root,
      env: env as unknown as NodeJS.ProcessEnv,
      stdio: ['ignore', 'inherit', 'inherit', 'pipe'],
    });
    const channel = child.stdio[3] as Duplex;
    const ends: LaneEnds = {
      channel,
      // read at each use: once libuv closed the pipe, its number may name another file
      fd: () => (channel.destroyed ? -1 : pipeFd(channel)),
      onFrame: (message) => (isFromWorker(message) ? this.onMessage(w, message) : ends.onBroken('a frame that is no worker message')),
      onBroken: (why) => {
        w.why = `the worker sent ${why}`;
        child.kill('SIGKILL');
      },
    };
    const lane = pipeLane(ends);
    const w: Worker = {
      child,
      channel,
      lane,
      pid: child.pid ?? -1,
      ready: false,
      alive: true,
      jobs: new Map(),
      culprit: null,
      why: null,
      fatal: false,
      codes: new Map(),
      place,
      hog: null,
    };
    this.live.add(w);
    channel.on('data', (chunk: Buffer) => {
      this.spin.heard();
      lane.fromPipe(chunk);
    });
    channel.on('error', () => child.kill('SIGKILL'));
    child.on('error', () => {
      // spawn errors end in 'exit' as well; nothing else to do here
    });
    child.once('exit', (code, signal) => this.onExit(w, code, signal));
    return w;
  }

  private onMessage(w: Worker, message: FromWorker): void {
    switch (message.t) {
      case 'ready':
        w.ready = true;
        this.startupFailures = 0;
        this.dispatch();
        return;
      case 'hc':
        return this.onHostCall(w, message);
      case 'res': {
        const p = w.jobs.get(message.j);
        if (!p) return;
        // decoded while the job is still the worker's: a result that is not JSON breaks the
        // peer (frame.ts), and the job then ends with the worker instead of at its timeout
        const result = decodeRawResult(message.r);
        this.confinement.observe(p.principal, message.r);
        w.jobs.delete(message.j);
        this.observe(p);
        this.settle(p, result);
        this.dispatch();
        return;
      }
      case 'fatal':
        // the worker's last word: once (a worker that keeps talking is killed now)
        if (w.fatal) return;
        w.fatal = true;
        w.culprit = message.j ?? null;
        w.why = message.message;
        process.emitWarning(`sandbox worker ${w.pid}: catastrophic isolate error: ${message.message}`);
        w.child.kill('SIGKILL');
    }
  }

  private observe(p: Pending): void {
    const held = performance.now() - p.startedAt - p.parkedMs;
    this.samples++;
    this.slotMs = this.samples === 1 ? held : this.slotMs * 0.9 + held * 0.1;
  }

  private onHostCall(w: Worker, message: Extract<FromWorker, { t: 'hc' }>): void {
    const p = w.jobs.get(message.j);
    // a dead worker's last host calls are not made: nobody would get the answer
    if (!p || p.done || !w.alive) return;
    const reply = (ok: boolean, v: string | undefined) => this.send(w, { t: 'hr', c: message.c, ok, v });
    if (!p.job.hostMethods.includes(message.m)) {
      reply(false, hostErrorJson(new Error(`host method ${JSON.stringify(message.m)} is not available`)));
      return;
    }
    p.hostCallsMade++;
    // While it waits on the host the job gives up its slot: the host call may run another
    // sandbox job (a tool invoked from agent code), which must not queue behind its caller.
    if (p.hostCalls++ === 0) {
      p.parkedSince = performance.now();
      this.dispatch();
    }
    const unpark = () => {
      if (--p.hostCalls === 0) {
        p.segmentAt = performance.now();
        p.parkedMs += p.segmentAt - p.parkedSince;
      }
    };
    callHandlerRaw(p.handler, message.m, message.a).then(
      (json) => {
        unpark();
        if (!p.done) reply(true, json);
      },
      (error) => {
        unpark();
        if (!p.done) reply(false, hostErrorJson(error));
      },
    );
  }

  private onExit(w: Worker, code: number | null, signal: NodeJS.Signals | null): void {
    w.alive = false;
    // results the worker wrote before it died count (its `fatal` came through the pipe)
    w.lane.drain();
    this.live.delete(w);
    const how = signal ? `signal ${signal}` : `code ${code}`;
    // The job that brought the worker down fails; the others did nothing wrong and run
    // again on a healthy worker, unless they already made host calls (their effects must
    // not happen twice) or this is their second crash.
    for (const p of w.jobs.values()) {
      if (p.id === w.culprit) this.confinement.mark(p.principal); // a cancelled job too
      if (p.done) continue;
      if (p.id === w.culprit) {
        this.settle(p, failed('sandbox/worker-crashed', `the job crashed its sandbox worker (${w.why ?? how}); the worker was replaced`));
      } else if (p.hostCallsMade === 0 && p.attempts < MAX_ATTEMPTS && !this.closed && !p.job.signal?.aborted) {
        if (p.timer) clearTimeout(p.timer);
        p.timer = null;
        p.worker = null;
        this.retried++;
        this.queue.pushFront(p.principal, p);
      } else {
        this.settle(p, failed('sandbox/worker-crashed', `the sandbox worker process exited (${how}${w.why ? `: ${w.why}` : ''}) while running the job`));
      }
    }
    w.jobs.clear();
    for (const [key, owner] of this.affinity) if (owner === w) this.affinity.delete(key);
    const wasReserve = w === this.reserve;
    if (wasReserve) this.reserve = null;
    if (this.closed) return;

    if (!w.ready && ++this.startupFailures >= STARTUP_FAILURES_BEFORE_GIVING_UP) {
      this.broken = `sandbox workers fail to start (last exit: ${how}); is ${this.workerFile} present and built?`;
      // every tool call fails from now on: /api/health must say so
      reportFailure('sandbox.workers', new Error(this.broken));
      for (const p of this.queue.drain()) this.settle(p, failed('sandbox/worker-crashed', this.broken));
      return;
    }
    const now = Date.now();
    this.crashes.push(now);
    while (this.crashes.length > 0 && this.crashes[0] < now - CRASH_WINDOW_MS) this.crashes.shift();
    const delay = this.crashes.length >= CRASHES_BEFORE_BACKOFF ? 1_000 : 0;
    this.restarts++;
    const restart = () => {
      if (this.closed) return;
      if (wasReserve) this.reserve = this.spawn(this.sizing.workers);
      else if (this.regularLive() < this.sizing.workers) this.spawn();
    };
    if (delay > 0) setTimeout(restart, delay).unref();
    else restart();
    this.dispatch();
  }

  private dispatch(): void {
    if (this.queue.size > 0) this.markHogs(performance.now());
    while (this.queue.size > 0) {
      // no free slot anywhere: nothing to try (a result or host call comes every few ms under load)
      if (!this.anyFree()) break;
      // the first waiting job (in fair order) that has a worker: a confined caller's job
      // waiting for its workers does not hold up everyone else's
      let chosen: Worker | null = null;
      const p = this.queue.takeFirst((q) => this.mayStart(q) && (chosen = this.pick(q.job.key, q.principal, q.job.confined)) !== null);
      if (!p || !chosen) break;
      this.start(p, chosen);
    }
    if (this.queue.size > 0) {
      this.recheckForReserve();
      this.recheckForColdStarts();
    }
  }

  /** a job with a warm isolate somewhere (its key ran last on a live worker), or its principal may start a cold one */
  private mayStart(p: Pending): boolean {
    return this.affinity.has(p.job.key) || this.coldBudget.has(p.principal);
  }

  /** while a cold job waits only for its principal's next cold start, looks again when that is due */
  private recheckForColdStarts(): void {
    if (this.coldCheck || this.closed || !this.coldBudget.enabled) return;
    let due = Infinity;
    for (const p of this.queue.heads()) if (!this.mayStart(p)) due = Math.min(due, this.coldBudget.waitMs(p.principal));
    if (due === Infinity) return;
    this.coldCheck = setTimeout(() => {
      this.coldCheck = null;
      this.dispatch();
    }, due);
    this.coldCheck.unref?.();
  }

  private regularLive(): number {
    let n = 0;
    for (const w of this.live) if (w.place < this.sizing.workers) n++;
    return n;
  }

  /**
   * Confinement keeps a marked caller's loops on their places, but a caller is marked only
   * once its first heavy job has run: the first loops of new callers (several signed-in
   * accounts) can hold every worker at once for up to their CPU limit. The pool keeps one
   * extra worker (the place after the last) that takes a known light caller's job only while
   * every worker is held in a long segment (`reserveOpen`). Such a state comes with no event,
   * so while a job the reserve may take waits, the pool looks again every RESERVE_CHECK_MS.
   */
  private recheckForReserve(): void {
    if (!this.reserve || this.reserveCheck || this.closed) return;
    let waiting = false;
    for (const p of this.queue.heads()) if (!p.job.confined && this.reserveMay(p.principal)) waiting = true;
    if (!waiting) return;
    this.reserveCheck = setTimeout(() => {
      this.reserveCheck = null;
      this.dispatch();
    }, RESERVE_CHECK_MS);
    this.reserveCheck.unref?.();
  }

  /** the reserve is ready and every other worker is starting or held in a long segment */
  private reserveOpen(now: number): boolean {
    if (!this.reserve?.ready) return false;
    for (const w of this.live) if (w !== this.reserve && w.ready && !this.stuck(w, now)) return false;
    return true;
  }

  /**
   * The reserve takes one job at a time of a known caller (its last job ended light) with
   * no mark: a new caller's first loop never gets it, and a known one's at most one loop.
   */
  private reserveMay(principal: string): boolean {
    if (!this.confinement.isKnownLight(principal)) return false;
    if (this.reserve) for (const job of this.reserve.jobs.values()) if (job.principal === principal) return false;
    return true;
  }

  /**
   * Marks the caller of a job that holds its worker in one segment and has used HEAVY_CPU_MS
   * of the worker's CPU in it: its other jobs are confined at once, not only when that job
   * ends (a new caller's first loops would otherwise spread over every worker). CPU, not wall
   * time: on a machine short of CPU a job of a few milliseconds can take hundreds.
   */
  private markHogs(now: number): void {
    for (const w of this.live) {
      // the job whose current segment began first is the one running (the others wait behind it)
      let first: Pending | null = null;
      for (const job of w.jobs.values()) if (job.hostCalls === 0 && (!first || job.segmentAt < first.segmentAt)) first = job;
      if (!first || now - first.segmentAt < LONG_SEGMENT_MS || this.confinement.isHeavy(first.principal)) {
        w.hog = null;
        continue;
      }
      if (w.hog?.job !== first.id) {
        const cpuMs = processCpuMs(w.pid);
        w.hog = cpuMs === null ? null : { job: first.id, cpuMs, checkedAt: now };
        continue;
      }
      if (now - w.hog.checkedAt < HOG_CHECK_MS) continue;
      w.hog.checkedAt = now;
      const cpuMs = processCpuMs(w.pid);
      if (cpuMs !== null && cpuMs - w.hog.cpuMs >= HEAVY_CPU_MS) this.confinement.mark(first.principal);
    }
  }

  /** a worker that is up and has a slot free */
  private free(w: Worker): boolean {
    return w.alive && w.ready && this.busy(w) < this.sizing.concurrency;
  }

  private anyFree(): boolean {
    for (const w of this.live) if (this.free(w)) return true;
    return false;
  }

  /** slots a worker's jobs hold: a job waiting on a host call holds none (see onHostCall) */
  private busy(w: Worker): number {
    let n = 0;
    for (const job of w.jobs.values()) if (job.hostCalls === 0) n++;
    return n;
  }

  /**
   * The worker for a job of `principal`, or null while none may take it. A heavy caller's
   * job (confinement.ts) goes only to the first heavyWorkerCap places, so the others never
   * run one; every other job goes to a worker not held in a long segment, first one without
   * heavy callers' jobs, then one where none runs now, else it waits (and may get the
   * reserve: `reserveOpen`).
   */
  private pick(key: string, principal: string, confined = false): Worker | null {
    // One worker is shared by all. With more, a heavy caller's jobs wait for their places
    // even while a worker there is being replaced: they never spill onto the others.
    if (this.sizing.workers < 2) return this.pickFrom(key, () => true);
    if (confined || this.confinement.isHeavy(principal)) {
      const places = heavyWorkerCap(this.sizing.workers);
      return this.pickFrom(key, (w) => w.place < places);
    }
    // a heavy caller's job: anywhere (`all`), or only one that runs now, not waiting on its host
    const holdsHeavy = (w: Worker, all: boolean) => {
      for (const job of w.jobs.values()) if ((all || job.hostCalls === 0) && (job.job.confined || this.confinement.isHeavy(job.principal))) return true;
      return false;
    };
    const reserve = this.reserve;
    const mayReserve = !reserve || (this.reserveOpen(performance.now()) && this.reserveMay(principal));
    return (
      this.pickFrom(key, (w) => (mayReserve || w !== reserve) && !holdsHeavy(w, true), false) ??
      this.pickFrom(key, (w) => (mayReserve || w !== reserve) && !holdsHeavy(w, false), false)
    );
  }

  /** The best worker among those `allowed`: the warm one unless stuck, else the least busy; a stuck one last, if `orStuck`. */
  private pickFrom(key: string, allowed: (w: Worker) => boolean, orStuck = true): Worker | null {
    const affine = this.affinity.get(key);
    const busy = (w: Worker) => this.busy(w);
    // A worker runs guest code synchronously, one segment at a time: a job sent to a worker
    // that is in a long segment (another caller's 1 s loop) waits for all of it. Such a
    // worker is passed over while another can take the job (a cold start there costs
    // milliseconds); behind short jobs, the warm isolate is worth the wait.
    const now = performance.now();
    const stuck = (w: Worker) => this.stuck(w, now);
    const usable = (w: Worker | undefined): w is Worker => !!w && this.free(w) && allowed(w);
    if (usable(affine) && !stuck(affine)) return affine;
    let best: Worker | null = null;
    for (const w of this.live) {
      if (!usable(w) || stuck(w)) continue;
      if (!best || busy(w) < busy(best)) best = w;
    }
    if (best || !orStuck) return best;
    if (usable(affine)) return affine;
    for (const w of this.live) {
      if (!usable(w)) continue;
      if (!best || busy(w) < busy(best)) best = w;
    }
    return best;
  }

  /** it runs a job that has not waited on its host for LONG_SEGMENT_MS: a job sent there waits for that segment */
  private stuck(w: Worker, now: number): boolean {
    for (const job of w.jobs.values()) if (job.hostCalls === 0 && now - job.startedAt - job.parkedMs > LONG_SEGMENT_MS) return true;
    return false;
  }

  private start(p: Pending, w: Worker): void {
    p.worker = w;
    p.attempts++;
    p.startedAt = performance.now();
    p.segmentAt = p.startedAt;
    p.parkedMs = 0;
    w.jobs.set(p.id, p);
    if (!this.affinity.delete(p.job.key)) this.coldBudget.take(p.principal);
    this.affinity.set(p.job.key, w);
    if (this.affinity.size > MAX_AFFINITY) this.affinity.delete(this.affinity.keys().next().value as string);
    // The worker enforces wallMs itself; this only catches a worker that stopped answering.
    // Its job is the one to blame; the worker's other jobs are retried elsewhere.
    const wallMs = resolveLimits(p.job.limits, this.opts.defaultLimits).wallMs;
    p.timer = setTimeout(() => {
      if (p.done || p.worker !== w) return;
      w.culprit = p.id;
      this.confinement.mark(p.principal);
      this.settle(p, failed('sandbox/timeout', `the sandbox worker did not answer within ${wallMs + WORKER_GRACE_MS} ms; it was restarted`));
      w.child.kill('SIGKILL');
    }, wallMs + WORKER_GRACE_MS);
    p.timer.unref?.();
    let frame: JobFrame;
    try {
      frame = this.frame(p, w);
    } catch (error) {
      w.jobs.delete(p.id);
      this.settle(p, failed('sandbox/host-error', `invalid sandbox job: args and globals must be JSON (${error instanceof Error ? error.message : String(error)})`));
      return;
    }
    this.send(w, frame);
  }

  /** The job as a frame: source and prelude by id once the worker has them. */
  private frame(p: Pending, w: Worker): JobFrame {
    const { job } = p;
    const f: JobFrame = { t: 'job', j: p.id, k: job.key, c: 0, pi: 0, e: job.entry, a: JSON.stringify(job.args), m: job.hostMethods };
    // everything that can throw (JSON) before the code table changes
    if (job.globals !== undefined) f.g = JSON.stringify(job.globals);
    if (job.returnGlobals !== undefined) f.r = JSON.stringify(job.returnGlobals);
    if (job.limits !== undefined) f.l = job.limits;
    if (job.principal) f.q = job.principal;
    if (w.codes.size + 2 > MAX_CODES_PER_WORKER) {
      w.codes.clear();
      f.x = 1;
    }
    const code = (text: string, put: (id: number) => void) => {
      let id = w.codes.get(text);
      if (id === undefined) {
        id = w.codes.size + 1;
        w.codes.set(text, id);
        put(id);
      }
      return id;
    };
    f.c = code(job.source, () => (f.s = job.source));
    if (job.prelude !== undefined) f.pi = code(job.prelude, () => (f.p = job.prelude));
    return f;
  }

  private send(w: Worker, message: ToWorker): void {
    if (!w.alive || w.channel.destroyed) return;
    w.lane.send(encodeFrame(message));
    if (message.t !== 'cancel') this.spin.idle();
  }

  /** Lanes of live workers running a job that is not waiting on its host: they owe a frame. */
  private *owing(): Generator<Lane> {
    for (const w of this.live) {
      if (!w.alive) continue;
      for (const p of w.jobs.values()) {
        if (p.hostCalls === 0) {
          yield w.lane;
          break;
        }
      }
    }
  }

  private settle(p: Pending, result: SandboxResult): void {
    if (p.done) return;
    p.done = true;
    if (p.timer) clearTimeout(p.timer);
    p.resolve(result);
  }
}
