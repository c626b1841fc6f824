// Runs sandbox jobs in isolated-vm isolates inside the current process. The worker
// process (worker.ts) wraps one engine; the in-process pool mode uses one directly.
//
// Guest code only ever runs inside a call we start (the job's entry call, or the
// settlement of a host call). Each such segment is a synchronous isolated-vm call
// (applySync: no thread hop, no promise turn) whose `timeout` is the job's remaining CPU
// budget (and never more than its remaining wall-clock time); microtasks run inside it.
// While a job waits on its host, a wall-clock timer disposes the isolate if the job
// outlives `wallMs` (isolated-vm's timeout does not see time spent awaiting the host). A
// segment blocks this thread: the worker process runs a watchdog thread for segments that
// V8 fails to stop (see watchdog.ts).
import ivm from 'isolated-vm';
import { BOOTSTRAP_SOURCE } from './bootstrap';
import { CodeCache, cacheOptions } from './code-cache';
import { IsolateCache, disposeWarmIsolate, type Fingerprint, type WarmIsolate } from './isolate-cache';
import { JobRun } from './job-run';
import { CANCELLED, callHandlerRaw, decodeRawResult, rawFailure, messageOf, type RawHostCall, type RawResult } from './raw-result';
import { resolveLimits } from './limits';
import type { HostCallHandler, SandboxJob, SandboxLimits, SandboxResult } from './types';

export { CANCELLED, callHandlerRaw, decodeRawResult, hostErrorJson, type RawHostCall, type RawResult } from './raw-result';

export type EngineOptions = {
  /** idle warm isolates kept (LRU); default 32 */
  maxIdleIsolates?: number;
  defaultLimits?: SandboxLimits;
  /** V8 lost control of an isolate: the process should stop taking work (`job`: the job that was using it) */
  onCatastrophicError?: (message: string, job: SandboxJob | undefined) => void;
  /** blank isolates (context + bridge, default memory limit) kept ready for cold jobs; default 1 */
  spareIsolates?: number;
  /**
   * Called before each synchronous guest segment with its job and the time (Date.now())
   * by which isolated-vm must have stopped it, and after it with (null, 0): the watchdog.
   */
  onSegment?: (job: SandboxJob | null, deadline: number) => void;
};

const MAX_SOURCE_CHARS = 4_000_000;
const MAX_HOST_METHODS = 256;

export function validateJob(job: SandboxJob): string | null {
  if (job === null || typeof job !== 'object') return 'job must be an object';
  if (typeof job.key !== 'string' || job.key === '') return 'job.key must be a non-empty string';
  if (typeof job.source !== 'string') return 'job.source must be a string';
  if (job.source.length > MAX_SOURCE_CHARS) return `job.source is larger than ${MAX_SOURCE_CHARS} characters`;
  if (typeof job.entry !== 'string' || job.entry === '') return 'job.entry must be a non-empty string';
  if (!Array.isArray(job.args)) return 'job.args must be an array';
  if (!Array.isArray(job.hostMethods) || job.hostMethods.length > MAX_HOST_METHODS) return `job.hostMethods must be an array of at most ${MAX_HOST_METHODS} names`;
  if (job.hostMethods.some((m) => typeof m !== 'string' || m === '')) return 'job.hostMethods must hold non-empty strings';
  if (job.prelude !== undefined && typeof job.prelude !== 'string') return 'job.prelude must be a string';
  if (job.globals !== undefined && (job.globals === null || typeof job.globals !== 'object' || Array.isArray(job.globals))) return 'job.globals must be an object';
  if (job.returnGlobals !== undefined && (!Array.isArray(job.returnGlobals) || job.returnGlobals.some((n) => typeof n !== 'string')))
    return 'job.returnGlobals must be an array of names';
  return null;
}

export class SandboxEngine {
  private readonly cache: IsolateCache;
  private readonly running = new Set<JobRun>();
  private readonly spares: WarmIsolate[] = [];
  private spareTimer: NodeJS.Immediate | null = null;
  private closed = false;
  readonly code = new CodeCache();
  broken: string | null = null;

  constructor(private readonly options: EngineOptions = {}) {
    this.cache = new IsolateCache(options.maxIdleIsolates ?? 32);
  }

  get idleIsolates(): number {
    return this.cache.size;
  }

  /** Runs a job with JSON-text host calls and result (no parse/stringify round trips). */
  runRaw(job: SandboxJob, hostCall: RawHostCall): Promise<RawResult> {
    if (this.closed) return Promise.resolve(rawFailure('sandbox/closed', 'the sandbox is closed'));
    if (this.broken) return Promise.resolve(rawFailure('sandbox/worker-crashed', `the sandbox engine is unusable: ${this.broken}`));
    const invalid = validateJob(job);
    if (invalid) return Promise.resolve(rawFailure('sandbox/host-error', `invalid sandbox job: ${invalid}`));
    let argsJson: string, globalsJson: string | undefined, returnJson: string | undefined;
    try {
      argsJson = JSON.stringify(job.args);
      globalsJson = job.globals === undefined ? undefined : JSON.stringify(job.globals);
      returnJson = job.returnGlobals === undefined ? undefined : JSON.stringify(job.returnGlobals);
    } catch (error) {
      return Promise.resolve(rawFailure('sandbox/host-error', `invalid sandbox job: args and globals must be JSON (${messageOf(error)})`));
    }
    return this.runEncoded(job, hostCall, argsJson, globalsJson, returnJson);
  }

  /** runRaw for a job whose args, globals and returnGlobals are already JSON text (the worker's frames). */
  runEncoded(job: SandboxJob, hostCall: RawHostCall, argsJson: string, globalsJson: string | undefined, returnJson: string | undefined): Promise<RawResult> {
    if (this.closed) return Promise.resolve(rawFailure('sandbox/closed', 'the sandbox is closed'));
    if (this.broken) return Promise.resolve(rawFailure('sandbox/worker-crashed', `the sandbox engine is unusable: ${this.broken}`));
    const limits = resolveLimits(job.limits, this.options.defaultLimits);
    const signal = job.signal;
    if (signal?.aborted) return Promise.resolve(rawFailure('sandbox/timeout', CANCELLED));
    return new Promise<RawResult>((resolve) => {
      const onAbort = signal && (() => run.fail('sandbox/timeout', CANCELLED));
      const run = new JobRun(this, job, limits, hostCall, { argsJson, globalsJson, returnJson }, (result) => {
        this.running.delete(run);
        if (onAbort) signal.removeEventListener('abort', onAbort);
        resolve(result);
      });
      this.running.add(run);
      if (onAbort) signal.addEventListener('abort', onAbort, { once: true });
      run.start();
    });
  }

  /** Ends a running job as cancelled by its caller (the worker's cancel frame; in process, job.signal). */
  cancel(job: SandboxJob): void {
    for (const run of this.running) if (run.job === job) run.fail('sandbox/timeout', CANCELLED);
  }

  /** The Sandbox contract on top of runRaw (used by the in-process pool). */
  async run(job: SandboxJob, onHostCall: HostCallHandler): Promise<SandboxResult> {
    const raw = await this.runRaw(job, (method, argsJson) => callHandlerRaw(onHostCall, method, argsJson));
    return decodeRawResult(raw);
  }

  close(): void {
    this.closed = true;
    for (const run of [...this.running]) run.fail('sandbox/closed', 'the sandbox was closed while the job ran');
    this.cache.clear();
    for (const spare of this.spares.splice(0)) disposeWarmIsolate(spare);
    if (this.spareTimer) clearImmediate(this.spareTimer);
    this.code.clear();
  }

  /** Makes the spare isolates now (a worker does this before it says it is ready). */
  prewarm(): void {
    const want = this.options.spareIsolates ?? 1;
    const memoryMb = resolveLimits(undefined, this.options.defaultLimits).memoryMb;
    while (!this.closed && !this.broken && this.spares.length < want) this.spares.push(this.blank(memoryMb));
  }

  /** @internal */ checkout(want: Fingerprint): WarmIsolate | undefined {
    return this.cache.checkout(want);
  }
  /** @internal */ checkin(entry: WarmIsolate): void {
    if (this.closed) disposeWarmIsolate(entry);
    else this.cache.checkin(entry);
  }
  /** @internal */ catastrophe(message: string, job: SandboxJob | undefined): void {
    this.broken = message;
    this.options.onCatastrophicError?.(message, job);
  }
  /** @internal whether segments are watched (onSegment): their deadline is computed only then */
  get watched(): boolean {
    return this.options.onSegment !== undefined;
  }
  /** @internal */ segment(job: SandboxJob | null, deadline: number): void {
    this.options.onSegment?.(job, deadline);
  }

  /** @internal A blank isolate for `memoryMb`: a spare when one fits, else a new one. */
  takeBlank(memoryMb: number): WarmIsolate {
    const at = this.spares.findIndex((s) => s.memoryMb === memoryMb && !s.isolate.isDisposed);
    if (at < 0) return this.blank(memoryMb);
    const [spare] = this.spares.splice(at, 1);
    this.refillSpares();
    return spare;
  }

  /** Spares are made again after the current work (setImmediate), never on a job's path. */
  private refillSpares(): void {
    if (this.spareTimer || this.closed) return;
    this.spareTimer = setImmediate(() => {
      this.spareTimer = null;
      try {
        this.prewarm();
      } catch {
        // no spare this time; cold jobs make their own isolate
      }
    });
    this.spareTimer.unref?.();
  }

  /** A new isolate + context with the bridge evaluated (not yet bound to a job). */
  private blank(memoryMb: number): WarmIsolate {
    const engine = this;
    const entry: WarmIsolate = {
      key: '',
      principal: '',
      idleSince: 0,
      source: '',
      prelude: undefined,
      methodsSig: '',
      memoryMb,
      isolate: undefined as unknown as ivm.Isolate,
      context: undefined as unknown as ivm.Context,
      run: undefined as unknown as ivm.Reference,
      settle: undefined as unknown as ivm.Reference,
      init: null,
      setNamespace: null,
      active: null,
      uses: 0,
      runConfig: null,
    };
    const culprit = () => (entry.active as JobRun | null)?.job;
    entry.isolate = new ivm.Isolate({ memoryLimit: memoryMb, onCatastrophicError: (m) => engine.catastrophe(m, culprit()) });
    try {
      entry.context = entry.isolate.createContextSync();
      const script = entry.isolate.compileScriptSync(BOOTSTRAP_SOURCE, cacheOptions(this.code, BOOTSTRAP_SOURCE, 'file:///sandbox/bridge.js'));
      this.code.remember(BOOTSTRAP_SOURCE, script);
      const factory = script.runSync(entry.context, { reference: true }) as ivm.Reference;
      script.release();
      const api = factory.applySync(undefined, [], { result: { reference: true } }) as ivm.Reference;
      factory.release();
      entry.run = api.getSync('run', { reference: true });
      entry.settle = api.getSync('settle', { reference: true });
      entry.init = api.getSync('init', { reference: true });
      entry.setNamespace = api.getSync('setNamespace', { reference: true });
      api.release();
    } catch (error) {
      disposeWarmIsolate(entry);
      throw error;
    }
    return entry;
  }
}
