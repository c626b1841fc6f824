// The Sandbox used by the server: a pool of worker processes, each running many jobs in
// its own isolates. A catastrophic isolate failure costs one worker (restarted), never
// the caller's process. Jobs with the same key go to the worker that ran the key last,
// so they find their warm isolate there.
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CANCELLED, callHandlerRaw, decodeRawResult, hostErrorJson, validateJob } from './engine';
import { failed } from './errors';
import { createInProcessSandbox } from './in-process';
import { resolveLimits } from './limits';
import type { FromWorker, ToWorker } from './protocol';
import type { HostCallHandler, Sandbox, SandboxJob, SandboxLimits, SandboxResult } from './types';

export type SandboxPoolOptions = {
  /** worker processes (default: CPU count, at most 4) */
  workers?: number;
  /** jobs waiting for a free slot before `sandbox/queue-full` (default 256) */
  queueLimit?: number;
  /** limits for jobs that do not set their own */
  defaultLimits?: SandboxLimits;
  /** run isolates in this process instead of workers (benchmarks, CLI) */
  inProcess?: boolean;
  /** jobs one worker runs at once (default 8); isolates run on their own threads */
  concurrency?: number;
  /** idle warm isolates kept per worker (default 32) */
  maxIdleIsolates?: number;
  /** worker entry file; default `<SKILLYARD_ROOT or cwd>/lib/sandbox/worker.ts` */
  workerFile?: string;
};

export type SandboxPoolStats = { workers: number; ready: number; running: number; queued: number; restarts: number };

export interface SandboxPool extends Sandbox {
  stats(): SandboxPoolStats;
  /** process ids of the live workers (empty in-process) */
  workerPids(): number[];
}

type Worker = { child: ChildProcess; pid: number; ready: boolean; alive: boolean; jobs: Map<number, Pending> };
type Pending = {
  id: number;
  job: SandboxJob;
  handler: HostCallHandler;
  resolve: (result: SandboxResult) => void;
  worker: Worker | null;
  timer: NodeJS.Timeout | null;
  done: boolean;
  /** host calls of this job still unanswered */
  hostCalls: number;
};

/** Grace on top of a job's wallMs before the pool gives up on a silent worker and kills it. */
const WORKER_GRACE_MS = 2_000;
const MAX_AFFINITY = 10_000;
const CRASH_WINDOW_MS = 10_000;
const CRASHES_BEFORE_BACKOFF = 5;
const STARTUP_FAILURES_BEFORE_GIVING_UP = 5;

export function resolveWorkerFile(explicit?: string): string {
  if (explicit) return explicit;
  const root = process.env.SKILLYARD_ROOT ?? process.cwd();
  const candidate = path.join(root, 'lib', 'sandbox', 'worker.ts');
  if (existsSync(candidate)) return candidate;
  try {
    // Kept indirect so bundlers do not treat it as an asset reference to copy.
    const base = import.meta.url;
    const here = fileURLToPath(new URL('./worker.ts', base));
    if (existsSync(here)) return here;
  } catch {
    // not a file: URL (bundled); fall through
  }
  throw new Error(`sandbox worker not found at ${candidate}; set SKILLYARD_ROOT to the project root`);
}

/** Only what node and tsx need: never the server's secrets. */
function workerEnv(): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { SKILLYARD_SANDBOX_WORKER: '1' };
  for (const name of ['PATH', 'NODE_ENV', 'TZ', 'TMPDIR', 'TMP', 'TEMP', 'SystemRoot']) {
    if (process.env[name] !== undefined) env[name] = process.env[name];
  }
  return env;
}

export function createSandboxPool(opts: SandboxPoolOptions = {}): SandboxPool {
  const workers = Math.max(1, Math.floor(opts.workers ?? Math.min(4, os.cpus().length || 1)));
  const concurrency = Math.max(1, Math.floor(opts.concurrency ?? 8));
  const queueLimit = Math.max(0, Math.floor(opts.queueLimit ?? 256));
  if (opts.inProcess) {
    return createInProcessSandbox({ slots: workers * concurrency, queueLimit, defaultLimits: opts.defaultLimits, maxIdleIsolates: opts.maxIdleIsolates });
  }
  return new WorkerPool(resolveWorkerFile(opts.workerFile), workers, concurrency, queueLimit, opts);
}

class WorkerPool implements SandboxPool {
  private readonly live = new Set<Worker>();
  private readonly queue: Pending[] = [];
  private readonly affinity = new Map<string, Worker>();
  private readonly crashes: number[] = [];
  private startupFailures = 0;
  private restarts = 0;
  private lastId = 0;
  private closed = false;
  private broken: string | null = null;
  private readonly root: string;

  constructor(
    private readonly workerFile: string,
    private readonly size: number,
    private readonly concurrency: number,
    private readonly queueLimit: number,
    private readonly opts: SandboxPoolOptions,
  ) {
    this.root = path.resolve(path.dirname(workerFile), '..', '..');
    for (let i = 0; i < size; i++) this.spawn();
  }

  run(job: SandboxJob, handler: HostCallHandler): Promise<SandboxResult> {
    if (this.closed) return Promise.resolve(failed('sandbox/closed', 'the sandbox is closed'));
    if (this.broken) return Promise.resolve(failed('sandbox/worker-crashed', this.broken));
    const invalid = validateJob(job);
    if (invalid) return Promise.resolve(failed('sandbox/host-error', `invalid sandbox job: ${invalid}`));
    if (job.signal?.aborted) return Promise.resolve(failed('sandbox/timeout', CANCELLED));
    return new Promise((resolve) => {
      const p: Pending = { id: ++this.lastId, job, handler, resolve, worker: null, timer: null, done: false, hostCalls: 0 };
      if (job.signal) {
        const onAbort = () => this.cancel(p);
        job.signal.addEventListener('abort', onAbort, { once: true });
        p.resolve = (result) => {
          job.signal!.removeEventListener('abort', onAbort);
          resolve(result);
        };
      }
      this.queue.push(p);
      this.dispatch();
      if (!p.worker && this.queue.length > this.queueLimit) {
        this.queue.splice(this.queue.indexOf(p), 1);
        this.settle(p, failed('sandbox/queue-full', `the sandbox queue is full (${this.queueLimit} jobs waiting)`));
      }
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const p of this.queue.splice(0)) this.settle(p, failed('sandbox/closed', 'the sandbox was closed before the job ran'));
    const exits: Promise<void>[] = [];
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
    if (p.worker) this.send(p.worker, { t: 'cancel', j: p.id });
    else this.queue.splice(this.queue.indexOf(p), 1);
    this.settle(p, failed('sandbox/timeout', CANCELLED));
  }

  stats(): SandboxPoolStats {
    let ready = 0;
    let running = 0;
    for (const w of this.live) {
      if (w.ready) ready++;
      running += w.jobs.size;
    }
    return { workers: this.live.size, ready, running, queued: this.queue.length, restarts: this.restarts };
  }

  workerPids(): number[] {
    return [...this.live].filter((w) => w.alive).map((w) => w.pid);
  }

  private spawn(): void {
    const child = fork(this.workerFile, [], {
      cwd: this.root,
      env: { ...workerEnv(), SKILLYARD_SANDBOX_MAX_IDLE: String(this.opts.maxIdleIsolates ?? 32) } as unknown as NodeJS.ProcessEnv,
      execArgv: ['--no-node-snapshot', '--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const w: Worker = { child, pid: child.pid ?? -1, ready: false, alive: true, jobs: new Map() };
    this.live.add(w);
    child.on('message', (message: FromWorker) => this.onMessage(w, message));
    child.on('error', () => {
      // spawn/IPC errors end in 'exit' as well; nothing else to do here
    });
    child.once('exit', (code, signal) => this.onExit(w, code, signal));
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
        w.jobs.delete(message.j);
        this.settle(p, decodeRawResult(message.r));
        this.dispatch();
        return;
      }
      case 'fatal':
        process.emitWarning(`sandbox worker ${w.pid}: catastrophic isolate error: ${message.message}`);
    }
  }

  private onHostCall(w: Worker, message: Extract<FromWorker, { t: 'hc' }>): void {
    const p = w.jobs.get(message.j);
    if (!p || p.done) return;
    const reply = (ok: boolean, v: string | undefined) => this.send(w, { t: 'hr', c: message.c, ok, v });
    if (!p.job.hostMethods.includes(message.m)) {
      reply(false, hostErrorJson(new Error(`host method ${JSON.stringify(message.m)} is not available`)));
      return;
    }
    // While it waits on the host the job gives up its slot: the host call may run another
    // sandbox job (a tool invoked from agent code), which must not queue behind its caller.
    if (p.hostCalls++ === 0) this.dispatch();
    const unpark = () => {
      p.hostCalls--;
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
    this.live.delete(w);
    const how = signal ? `signal ${signal}` : `code ${code}`;
    for (const p of w.jobs.values()) {
      this.settle(p, failed('sandbox/worker-crashed', `the sandbox worker process exited (${how}) while running the job`));
    }
    w.jobs.clear();
    for (const [key, owner] of this.affinity) if (owner === w) this.affinity.delete(key);
    if (this.closed) return;

    if (!w.ready && ++this.startupFailures >= STARTUP_FAILURES_BEFORE_GIVING_UP) {
      this.broken = `sandbox workers fail to start (last exit: ${how}); is tsx installed and ${this.workerFile} present?`;
      for (const p of this.queue.splice(0)) this.settle(p, failed('sandbox/worker-crashed', this.broken));
      return;
    }
    const now = Date.now();
    this.crashes.push(now);
    while (this.crashes.length > 0 && this.crashes[0] < now - CRASH_WINDOW_MS) this.crashes.shift();
    const delay = this.crashes.length >= CRASHES_BEFORE_BACKOFF ? 1_000 : 0;
    this.restarts++;
    const restart = () => {
      if (!this.closed && this.live.size < this.size) this.spawn();
    };
    if (delay > 0) setTimeout(restart, delay).unref();
    else restart();
    this.dispatch();
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const p = this.queue[0];
      const w = this.pick(p.job.key);
      if (!w) return;
      this.queue.shift();
      this.start(p, w);
    }
  }

  private pick(key: string): Worker | null {
    const affine = this.affinity.get(key);
    // jobs waiting on a host call hold no slot (see onHostCall)
    const busy = (w: Worker) => {
      let n = 0;
      for (const job of w.jobs.values()) if (job.hostCalls === 0) n++;
      return n;
    };
    if (affine && affine.alive && affine.ready && busy(affine) < this.concurrency) return affine;
    let best: Worker | null = null;
    for (const w of this.live) {
      if (!w.alive || !w.ready || busy(w) >= this.concurrency) continue;
      if (!best || busy(w) < busy(best)) best = w;
    }
    return best;
  }

  private start(p: Pending, w: Worker): void {
    p.worker = w;
    w.jobs.set(p.id, p);
    this.affinity.delete(p.job.key);
    this.affinity.set(p.job.key, w);
    if (this.affinity.size > MAX_AFFINITY) this.affinity.delete(this.affinity.keys().next().value as string);
    // The worker enforces wallMs itself; this only catches a worker that stopped answering.
    const wallMs = resolveLimits(p.job.limits, this.opts.defaultLimits).wallMs;
    p.timer = setTimeout(() => {
      this.settle(p, failed('sandbox/timeout', `the sandbox worker did not answer within ${wallMs + WORKER_GRACE_MS} ms; it was restarted`));
      w.child.kill('SIGKILL');
    }, wallMs + WORKER_GRACE_MS);
    p.timer.unref?.();
    const { signal: _local, ...wire } = p.job;
    this.send(w, { t: 'job', j: p.id, job: wire });
  }

  private send(w: Worker, message: ToWorker): void {
    if (!w.alive || !w.child.connected) return;
    w.child.send(message, (error) => {
      // a failed send means the worker is going away; its exit handler answers the job
      if (error) w.child.kill('SIGKILL');
    });
  }

  private settle(p: Pending, result: SandboxResult): void {
    if (p.done) return;
    p.done = true;
    if (p.timer) clearTimeout(p.timer);
    p.resolve(result);
  }
}
