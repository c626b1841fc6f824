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
import { FATAL_CODES, SandboxFailure } from './errors';
import { IsolateCache, disposeWarmIsolate, type Fingerprint, type WarmIsolate } from './isolate-cache';
import { MAX_JSON_DEPTH, jsonDeeperThan, parseUntrustedJson } from './json';
import { resolveLimits, type ResolvedLimits } from './limits';
import type { HostCallHandler, SandboxErrorCode, SandboxJob, SandboxLimits, SandboxResult } from './types';

/** Host call on raw JSON: resolves with the result's JSON (undefined for `undefined`). */
export type RawHostCall = (method: string, argsJson: string) => Promise<string | undefined>;

/** SandboxResult with the value and globals still as JSON text (what crosses process IPC). */
export type RawResult =
  | { ok: true; valueJson?: string; globalsJson?: string; stats: { wallMs: number; cold: boolean } }
  | { ok: false; error: { code: SandboxErrorCode; message: string }; globalsJson?: string };

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

export const CANCELLED = 'the job was cancelled by its caller';
const MAX_SOURCE_CHARS = 4_000_000;
const MAX_HOST_METHODS = 256;
const MODULE_FILENAME = 'file:///sandbox/module.js';

let lastSeq = 0;

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
  if (job.returnGlobals !== undefined && (!Array.isArray(job.returnGlobals) || job.returnGlobals.some((n) => typeof n !== 'string'))) return 'job.returnGlobals must be an array of names';
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
      const onAbort = () => run.fail('sandbox/timeout', CANCELLED);
      const run = new JobRun(this, job, limits, hostCall, { argsJson, globalsJson, returnJson }, (result) => {
        this.running.delete(run);
        signal?.removeEventListener('abort', onAbort);
        resolve(result);
      });
      this.running.add(run);
      signal?.addEventListener('abort', onAbort, { once: true });
      run.start();
    });
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

/** Calls a HostCallHandler with parsed args; a throw becomes `{message, code}`. */
export async function callHandlerRaw(handler: HostCallHandler, method: string, argsJson: string): Promise<string | undefined> {
  const parsed = parseUntrustedJson(argsJson);
  const value = await handler(method, Array.isArray(parsed) ? parsed : []);
  return JSON.stringify(value);
}

export function decodeRawResult(raw: RawResult): SandboxResult {
  const globals = raw.globalsJson === undefined ? undefined : (parseUntrustedJson(raw.globalsJson) as Record<string, unknown>);
  if (!raw.ok) return globals === undefined ? { ok: false, error: raw.error } : { ok: false, error: raw.error, globals };
  const value = parseUntrustedJson(raw.valueJson);
  return globals === undefined ? { ok: true, value, stats: raw.stats } : { ok: true, value, globals, stats: raw.stats };
}

function rawFailure(code: SandboxErrorCode, message: string, globalsJson?: string): RawResult {
  return globalsJson === undefined ? { ok: false, error: { code, message } } : { ok: false, error: { code, message }, globalsJson };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Host-call rejections become `{message, code}` JSON for the guest; never a stack. */
export function hostErrorJson(error: unknown): string {
  const message = error instanceof Error ? error.message : typeof error === 'object' && error !== null && 'message' in error ? String((error as { message: unknown }).message) : String(error);
  const code = typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string' ? (error as { code: string }).code : undefined;
  return JSON.stringify({ message, code });
}

type Encoded = { argsJson: string; globalsJson: string | undefined; returnJson: string | undefined };

/** What a segment returns (bootstrap.ts): requested host calls and the outcome. */
type Outbox = { n?: unknown; x?: unknown; q?: unknown; s?: unknown; j?: unknown; g?: unknown; [call: `c${number}`]: unknown };

/** heap statistics are read after a job when it used this much CPU, or every Nth use */
const HEAP_CHECK_CPU_MS = 2;
const HEAP_CHECK_EVERY = 8;

class JobRun {
  readonly seq = ++lastSeq;
  private readonly started = performance.now();
  private methodSet: Set<string> | null = null;
  /** CPU used so far (ms), as of the last segment's end */
  private cpuUsed = 0;
  private readonly fingerprint: Fingerprint;
  private entry: WarmIsolate | null = null;
  private cold = false;
  private settled = false;
  private inSegment = false;
  private deferred: [SandboxErrorCode, string] | null = null;
  private hostCalls = 0;
  private cpuStart = 0n;
  private timer: NodeJS.Timeout | null = null;
  private outcome: { status: string; json?: string; gjson?: string } | null = null;

  constructor(
    private readonly engine: SandboxEngine,
    readonly job: SandboxJob,
    private readonly limits: ResolvedLimits,
    private readonly hostCall: RawHostCall,
    private readonly encoded: Encoded,
    private readonly resolve: (result: RawResult) => void,
  ) {
    this.fingerprint = {
      key: job.key,
      source: job.source,
      prelude: job.prelude,
      methodsSig: job.hostMethods.join('\n'),
      memoryMb: limits.memoryMb,
    };
  }

  start(): void {
    let entry: WarmIsolate | null | undefined = this.engine.checkout(this.fingerprint);
    if (entry) {
      this.entry = entry;
      entry.active = this;
      this.cpuStart = entry.isolate.cpuTime;
    } else {
      this.cold = true;
      entry = this.setUp();
      if (!entry || this.settled) return;
    }
    const { argsJson, globalsJson, returnJson } = this.encoded;
    const run = entry.run;
    const args = [this.seq, this.job.entry, argsJson, globalsJson, returnJson, this.limits.maxHostCalls, this.limits.maxResultBytes];
    this.segment((timeout) => run.applySync(undefined, args, { timeout, result: { copy: true } }));
  }

  /** Cold start: a blank isolate (a spare if one fits), host, prelude, module. */
  private setUp(): WarmIsolate | null {
    const engine = this.engine;
    this.engine.segment(this.job, Date.now() + this.remainingWallMs() + this.limits.cpuMs);
    try {
      let entry: WarmIsolate;
      try {
        entry = engine.takeBlank(this.limits.memoryMb);
      } catch (error) {
        this.fail(...this.classify(error, 'setting up the sandbox'));
        return null;
      }
      Object.assign(entry, this.fingerprint);
      entry.active = this;
      this.entry = entry;
      this.cpuStart = entry.isolate.cpuTime;
      const { isolate, context } = entry;
      try {
        entry.init!.applySync(undefined, [JSON.stringify(this.job.hostMethods)]);
      } catch (error) {
        this.fail(...this.classify(error, 'setting up the sandbox'));
        return null;
      }
      entry.init!.release();
      entry.init = null;

      if (this.job.prelude) {
        const prelude = this.job.prelude;
        let script: ivm.Script;
        try {
          script = isolate.compileScriptSync(prelude, cacheOptions(engine.code, prelude, 'file:///sandbox/prelude.js'));
        } catch (error) {
          this.fail('sandbox/compile-error', `the prelude does not compile: ${messageOf(error)}`);
          return null;
        }
        engine.code.remember(prelude, script);
        try {
          script.runSync(context, { timeout: this.freshSegmentTimeout() });
        } catch (error) {
          this.fail(...this.classify(error, 'the prelude threw'));
          return null;
        } finally {
          script.release();
        }
        if (this.settled) return null;
      }

      const source = this.job.source;
      let mod: ivm.Module;
      try {
        mod = isolate.compileModuleSync(source, cacheOptions(engine.code, source, MODULE_FILENAME));
      } catch (error) {
        this.fail('sandbox/compile-error', `the module does not compile: ${messageOf(error)}`);
        return null;
      }
      engine.code.remember(source, mod);
      if (mod.dependencySpecifiers.length > 0) {
        const list = mod.dependencySpecifiers.map((s) => JSON.stringify(s)).join(', ');
        this.fail('sandbox/compile-error', `imports are not allowed in sandboxed code (found ${list}); bundle the code into one module`);
        return null;
      }
      try {
        mod.instantiateSync(context, (specifier) => {
          throw new Error(`import of ${JSON.stringify(specifier)} is not allowed`);
        });
      } catch (error) {
        this.fail('sandbox/compile-error', `the module cannot be linked: ${messageOf(error)}`);
        return null;
      }
      try {
        mod.evaluateSync({ timeout: this.freshSegmentTimeout() });
      } catch (error) {
        this.fail(...this.classify(error, 'the module top level threw'));
        return null;
      }
      if (this.settled) return null;
      entry.setNamespace!.applySync(undefined, [mod.namespace.derefInto()]);
      entry.setNamespace!.release();
      entry.setNamespace = null;
      mod.release();
      this.cpuUsed = this.cpuUsedMs();
      return entry;
    } finally {
      this.engine.segment(null, 0);
    }
  }

  /**
   * One synchronous guest segment; a throw is always fatal for the isolate. Its outbox
   * (copied out after the segment's microtasks) holds the host calls the guest asked for
   * and, when the job ended, the outcome.
   */
  private segment(call: (timeout: number) => unknown): void {
    const timeout = this.segmentTimeout();
    this.inSegment = true;
    this.engine.segment(this.job, Date.now() + timeout);
    let box: Outbox;
    try {
      box = call(timeout) as Outbox;
    } catch (error) {
      this.inSegment = false;
      // a limit the bridge reported during the call explains the throw better
      this.fail(...(this.deferred ?? this.classify(error, 'the guest failed')));
      return;
    } finally {
      this.inSegment = false;
      this.engine.segment(null, 0);
    }
    if (this.deferred) {
      const [code, message] = this.deferred;
      return this.fail(code, message);
    }
    if (box && typeof box === 'object') {
      if (box.x === 1) return this.fail('sandbox/too-many-host-calls', `the job made more than ${this.limits.maxHostCalls} host calls`);
      const n = typeof box.n === 'number' ? box.n : 0;
      for (let i = 0; i < n && !this.settled; i++) {
        const c = box[`c${i}`];
        if (Array.isArray(c) && c[0] === this.seq && typeof c[1] === 'number' && typeof c[2] === 'string' && typeof c[3] === 'string') {
          this.onSend(c[1], c[2], c[3]);
        }
      }
      if (box.q === this.seq && typeof box.s === 'string' && !this.outcome) {
        this.outcome = { status: box.s, json: typeof box.j === 'string' ? box.j : undefined, gjson: typeof box.g === 'string' ? box.g : undefined };
      }
    }
    this.afterSegment();
  }

  private afterSegment(): void {
    if (this.settled) return;
    this.cpuUsed = this.cpuUsedMs();
    if (this.cpuUsed > this.limits.cpuMs) {
      this.fail('sandbox/cpu-limit', `the job exceeded its CPU time limit of ${this.limits.cpuMs} ms`);
      return;
    }
    if (this.outcome) return this.complete();
    // The job now waits on its host (or on nothing): only a timer can end it.
    this.timer ??= setTimeout(
      () => this.fail('sandbox/timeout', `the job exceeded its wall-clock limit of ${this.limits.wallMs} ms`),
      this.remainingWallMs(),
    );
  }

  /** A host call the guest asked for in the segment that just returned. */
  private onSend(id: number, method: string, argsJson: string): void {
    this.methodSet ??= new Set(this.job.hostMethods);
    if (!this.methodSet.has(method)) {
      Promise.resolve().then(() => this.settleCall(id, false, hostErrorJson(new Error(`host method ${JSON.stringify(method)} is not available`))));
      return;
    }
    if (++this.hostCalls > this.limits.maxHostCalls) {
      this.fail('sandbox/too-many-host-calls', `the job made more than ${this.limits.maxHostCalls} host calls`);
      return;
    }
    let pending: Promise<string | undefined>;
    try {
      if (jsonDeeperThan(argsJson)) throw new Error(`host call arguments nest deeper than ${MAX_JSON_DEPTH} levels`);
      pending = this.hostCall(method, argsJson);
    } catch (error) {
      pending = Promise.reject(error);
    }
    pending.then(
      (json) => this.settleCall(id, true, json),
      (error) => this.settleCall(id, false, hostErrorJson(error)),
    );
  }

  private settleCall(id: number, ok: boolean, payload: string | undefined): void {
    if (this.settled || this.outcome || !this.entry) return;
    const settle = this.entry.settle;
    this.segment((timeout) => settle.applySync(undefined, [id, ok, payload], { timeout, result: { copy: true } }));
  }

  private complete(): void {
    const { status, json, gjson } = this.outcome!;
    const message = () => (json === undefined ? 'unknown error' : String(JSON.parse(json)));
    switch (status) {
      case 'ok': {
        const bytes = (json === undefined ? 0 : Buffer.byteLength(json)) + (gjson === undefined ? 0 : Buffer.byteLength(gjson));
        if (bytes > this.limits.maxResultBytes) return this.fail('sandbox/result-too-large', this.tooLarge());
        if (jsonDeeperThan(json) || jsonDeeperThan(gjson)) return this.fail('sandbox/guest-error', `the result nests deeper than ${MAX_JSON_DEPTH} levels`);
        if (this.overMemory()) return this.fail('sandbox/memory-limit', `the job left more than ${this.limits.memoryMb} MB on the isolate heap`);
        return this.finish({ ok: true, valueJson: json, globalsJson: gjson, stats: { wallMs: this.wallMs(), cold: this.cold } });
      }
      case 'no-entry':
        return this.fail('sandbox/no-entry', message(), gjson);
      case 'host-error':
        return this.fail('sandbox/host-error', message(), gjson);
      case 'too-large':
        return this.fail('sandbox/result-too-large', this.tooLarge());
      default: {
        const text = message();
        // the allocator refused at the limit and the guest saw it as a RangeError: the
        // isolate holds what it kept, so it is not reused
        if (/array buffer allocation failed/i.test(text)) return this.fail('sandbox/memory-limit', `the job exceeded its memory limit of ${this.limits.memoryMb} MB (${text})`);
        return this.fail('sandbox/guest-error', text, gjson);
      }
    }
  }

  fail(code: SandboxErrorCode, message: string, globalsJson?: string): void {
    if (this.settled) return;
    // Never dispose an isolate from inside its own synchronous call (a bridge callback):
    // the failure is applied when the segment returns.
    if (this.inSegment) {
      this.deferred ??= [code, message];
      return;
    }
    this.finish(rawFailure(code, message, globalsJson), FATAL_CODES.has(code) || code === 'sandbox/closed');
  }

  private finish(result: RawResult, fatal = false): void {
    if (this.settled) return;
    this.settled = true;
    if (this.timer) clearTimeout(this.timer);
    const entry = this.entry;
    this.entry = null;
    if (entry) {
      // Reuse only an isolate that is idle and healthy; anything else is disposed, which
      // also stops whatever guest code is still running in it.
      entry.uses++;
      if (fatal || entry.isolate.isDisposed || !entry.run || entry.setNamespace) disposeWarmIsolate(entry);
      else this.engine.checkin(entry);
    }
    this.resolve(result);
  }

  private classify(error: unknown, context: string): [SandboxErrorCode, string] {
    const message = messageOf(error);
    if (/memory limit|array buffer allocation failed/i.test(message)) return ['sandbox/memory-limit', `the job exceeded its memory limit of ${this.limits.memoryMb} MB`];
    if (message.includes('Script execution timed out')) {
      return this.remainingWallMs() <= 1 && this.cpuUsedMs() < this.limits.cpuMs
        ? ['sandbox/timeout', `the job exceeded its wall-clock limit of ${this.limits.wallMs} ms`]
        : ['sandbox/cpu-limit', `the job exceeded its CPU time limit of ${this.limits.cpuMs} ms`];
    }
    if (this.entry?.isolate.isDisposed || /disposed/i.test(message)) {
      return ['sandbox/memory-limit', `the isolate was disposed while the job ran (memory limit of ${this.limits.memoryMb} MB): ${message}`];
    }
    return ['sandbox/guest-error', `${context}: ${message}`];
  }

  /**
   * Heap + external memory over the limit after a job: the isolate is not reused. Read
   * after cold jobs, jobs that used HEAP_CHECK_CPU_MS of CPU (allocating takes time) and
   * every HEAP_CHECK_EVERY-th job of an isolate; isolated-vm's own limit acts meanwhile.
   */
  private overMemory(): boolean {
    const entry = this.entry;
    const isolate = entry?.isolate;
    if (!entry || !isolate || isolate.isDisposed) return false;
    if (!this.cold && this.cpuUsed < HEAP_CHECK_CPU_MS && (entry.uses + 1) % HEAP_CHECK_EVERY !== 0) return false;
    const heap = isolate.getHeapStatisticsSync();
    return heap.used_heap_size + heap.externally_allocated_size > this.limits.memoryMb * 1024 * 1024;
  }

  private tooLarge(): string {
    return `the result is larger than ${this.limits.maxResultBytes} bytes`;
  }

  private cpuUsedMs(): number {
    const isolate = this.entry?.isolate;
    if (!isolate || isolate.isDisposed) return 0;
    return Number(isolate.cpuTime - this.cpuStart) / 1e6;
  }

  private remainingWallMs(): number {
    return Math.max(1, Math.ceil(this.limits.wallMs - (performance.now() - this.started)));
  }

  private freshSegmentTimeout(): number {
    this.cpuUsed = this.cpuUsedMs();
    return this.segmentTimeout();
  }

  /** isolated-vm timeout for the next segment: remaining CPU budget, never past the wall deadline */
  private segmentTimeout(): number {
    return Math.max(1, Math.min(Math.ceil(this.limits.cpuMs - this.cpuUsed), this.remainingWallMs()));
  }

  private wallMs(): number {
    return Math.round((performance.now() - this.started) * 1000) / 1000;
  }
}
