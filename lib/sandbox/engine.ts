// Runs sandbox jobs in isolated-vm isolates inside the current process. The worker
// process (worker.ts) wraps one engine; the in-process pool mode uses one directly.
//
// Guest code only ever runs inside an `apply` we start (the job's entry call, or the
// settlement of a host call); each such segment gets the job's remaining CPU budget as
// isolated-vm `timeout`, and a host-side wall-clock timer disposes the isolate when the
// job outlives `wallMs` (isolated-vm's timeout does not see time spent awaiting the host).
import ivm from 'isolated-vm';
import { BOOTSTRAP_SOURCE } from './bootstrap';
import { FATAL_CODES, SandboxFailure } from './errors';
import { IsolateCache, disposeWarmIsolate, type Fingerprint, type WarmIsolate } from './isolate-cache';
import { parseUntrustedJson } from './json';
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
  private closed = false;
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
      void run.start();
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

class JobRun {
  readonly seq = ++lastSeq;
  private readonly started = performance.now();
  private readonly methods: Set<string>;
  private readonly fingerprint: Fingerprint;
  private entry: WarmIsolate | null = null;
  private cold = false;
  private settled = false;
  private inflight = 0;
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
    this.methods = new Set(job.hostMethods);
    this.fingerprint = {
      key: job.key,
      source: job.source,
      prelude: job.prelude,
      methodsSig: job.hostMethods.join('\n'),
      memoryMb: limits.memoryMb,
    };
  }

  async start(): Promise<void> {
    this.timer = setTimeout(
      () => this.fail('sandbox/timeout', `the job exceeded its wall-clock limit of ${this.limits.wallMs} ms`),
      this.limits.wallMs,
    );
    let entry = this.engine.checkout(this.fingerprint);
    if (entry) {
      this.entry = entry;
      entry.active = this;
      this.cpuStart = entry.isolate.cpuTime;
    } else {
      this.cold = true;
      try {
        entry = await this.createIsolate();
      } catch (error) {
        if (error instanceof SandboxFailure) this.fail(error.code, error.message);
        else this.fail(...this.classify(error, 'setting up the sandbox'));
        return;
      }
      if (this.settled) return;
    }
    const { argsJson, globalsJson, returnJson } = this.encoded;
    this.segment(
      entry.run.apply(
        undefined,
        [this.seq, this.job.entry, argsJson, globalsJson, returnJson, this.limits.maxHostCalls, this.limits.maxResultBytes],
        { timeout: this.remainingCpuMs() },
      ),
    );
  }

  private async createIsolate(): Promise<WarmIsolate> {
    const { memoryMb } = this.limits;
    const engine = this.engine;
    const culprit = () => ((entry.active as JobRun | null) ?? this).job;
    const isolate = new ivm.Isolate({ memoryLimit: memoryMb, onCatastrophicError: (m) => engine.catastrophe(m, culprit()) });
    const entry: WarmIsolate = {
      ...this.fingerprint,
      isolate,
      context: undefined as unknown as ivm.Context,
      run: undefined as unknown as ivm.Reference,
      settle: undefined as unknown as ivm.Reference,
      active: this,
    };
    this.entry = entry;
    this.cpuStart = isolate.cpuTime;
    const context = isolate.createContextSync();
    entry.context = context;
    const route = () => entry.active as JobRun | null;
    const send = new ivm.Callback((seq: number, id: number, method: string, json: string) => route()?.onSend(seq, id, method, json), { ignored: true });
    const done = new ivm.Callback(
      (seq: number, status: string, json: string | undefined, gjson: string | undefined) => route()?.onDone(seq, status, json, gjson),
      { ignored: true },
    );
    const api = context.evalClosureSync(BOOTSTRAP_SOURCE, [send, done, JSON.stringify(this.job.hostMethods)], {
      result: { reference: true },
    }) as ivm.Reference;
    entry.run = api.getSync('run', { reference: true });
    entry.settle = api.getSync('settle', { reference: true });
    const setNamespace = api.getSync('setNamespace', { reference: true });
    api.release();

    if (this.job.prelude) {
      let script: ivm.Script;
      try {
        script = isolate.compileScriptSync(this.job.prelude, { filename: 'file:///sandbox/prelude.js' });
      } catch (error) {
        throw new SandboxFailure('sandbox/compile-error', `the prelude does not compile: ${messageOf(error)}`);
      }
      try {
        await script.run(context, { timeout: this.remainingCpuMs() });
      } catch (error) {
        throw new SandboxFailure(...this.classify(error, 'the prelude threw'));
      }
      if (this.settled) return entry;
    }

    let mod: ivm.Module;
    try {
      mod = isolate.compileModuleSync(this.job.source, { filename: MODULE_FILENAME });
    } catch (error) {
      throw new SandboxFailure('sandbox/compile-error', `the module does not compile: ${messageOf(error)}`);
    }
    if (mod.dependencySpecifiers.length > 0) {
      const list = mod.dependencySpecifiers.map((s) => JSON.stringify(s)).join(', ');
      throw new SandboxFailure('sandbox/compile-error', `imports are not allowed in sandboxed code (found ${list}); bundle the code into one module`);
    }
    try {
      mod.instantiateSync(context, (specifier) => {
        throw new Error(`import of ${JSON.stringify(specifier)} is not allowed`);
      });
    } catch (error) {
      throw new SandboxFailure('sandbox/compile-error', `the module cannot be linked: ${messageOf(error)}`);
    }
    try {
      await mod.evaluate({ timeout: this.remainingCpuMs() });
    } catch (error) {
      throw new SandboxFailure(...this.classify(error, 'the module top level threw'));
    }
    if (this.settled) return entry;
    setNamespace.applySync(undefined, [mod.namespace.derefInto()]);
    setNamespace.release();
    return entry;
  }

  /** Tracks one guest execution segment; its failure is always fatal for the isolate. */
  private segment(promise: Promise<unknown>): void {
    this.inflight++;
    promise.then(
      () => {
        this.inflight--;
        this.afterSegment();
      },
      (error) => {
        this.inflight--;
        this.fail(...this.classify(error, 'the guest failed'));
      },
    );
  }

  private afterSegment(): void {
    if (this.settled) return;
    if (this.cpuUsedMs() > this.limits.cpuMs) {
      this.fail('sandbox/cpu-limit', `the job exceeded its CPU time limit of ${this.limits.cpuMs} ms`);
      return;
    }
    if (this.outcome && this.inflight === 0) this.complete();
  }

  onSend(seq: number, id: number, method: string, argsJson: string): void {
    if (this.settled || seq !== this.seq) return;
    if (!this.methods.has(method)) {
      this.settleCall(id, false, hostErrorJson(new Error(`host method ${JSON.stringify(method)} is not available`)));
      return;
    }
    if (++this.hostCalls > this.limits.maxHostCalls) {
      this.fail('sandbox/too-many-host-calls', `the job made more than ${this.limits.maxHostCalls} host calls`);
      return;
    }
    let pending: Promise<string | undefined>;
    try {
      pending = this.hostCall(method, argsJson);
    } catch (error) {
      pending = Promise.reject(error);
    }
    pending.then(
      (json) => this.settleCall(id, true, json),
      (error) => this.settleCall(id, false, hostErrorJson(error)),
    );
  }

  onDone(seq: number, status: string, json: string | undefined, gjson: string | undefined): void {
    if (this.settled || seq !== this.seq) return;
    if (status === 'calls') {
      this.fail('sandbox/too-many-host-calls', `the job made more than ${this.limits.maxHostCalls} host calls`);
      return;
    }
    if (this.outcome) return;
    this.outcome = { status, json, gjson };
    if (this.inflight === 0) this.complete();
  }

  private settleCall(id: number, ok: boolean, payload: string | undefined): void {
    if (this.settled || this.outcome || !this.entry) return;
    this.segment(this.entry.settle.apply(undefined, [id, ok, payload], { timeout: this.remainingCpuMs() }));
  }

  private complete(): void {
    const { status, json, gjson } = this.outcome!;
    const message = () => (json === undefined ? 'unknown error' : String(JSON.parse(json)));
    switch (status) {
      case 'ok': {
        const bytes = (json === undefined ? 0 : Buffer.byteLength(json)) + (gjson === undefined ? 0 : Buffer.byteLength(gjson));
        if (bytes > this.limits.maxResultBytes) return this.fail('sandbox/result-too-large', this.tooLarge());
        if (this.overMemory()) return this.fail('sandbox/memory-limit', `the job left more than ${this.limits.memoryMb} MB on the isolate heap`);
        return this.finish({ ok: true, valueJson: json, globalsJson: gjson, stats: { wallMs: this.wallMs(), cold: this.cold } });
      }
      case 'no-entry':
        return this.fail('sandbox/no-entry', message(), gjson);
      case 'host-error':
        return this.fail('sandbox/host-error', message(), gjson);
      case 'too-large':
        return this.fail('sandbox/result-too-large', this.tooLarge());
      default:
        return this.fail('sandbox/guest-error', message(), gjson);
    }
  }

  fail(code: SandboxErrorCode, message: string, globalsJson?: string): void {
    if (this.settled) return;
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
      if (fatal || this.inflight > 0 || entry.isolate.isDisposed || !entry.run) disposeWarmIsolate(entry);
      else this.engine.checkin(entry);
    }
    this.resolve(result);
  }

  private classify(error: unknown, context: string): [SandboxErrorCode, string] {
    const message = messageOf(error);
    if (/memory limit/i.test(message)) return ['sandbox/memory-limit', `the job exceeded its memory limit of ${this.limits.memoryMb} MB`];
    if (message.includes('Script execution timed out')) return ['sandbox/cpu-limit', `the job exceeded its CPU time limit of ${this.limits.cpuMs} ms`];
    if (this.entry?.isolate.isDisposed || /disposed/i.test(message)) {
      return ['sandbox/memory-limit', `the isolate was disposed while the job ran (memory limit of ${this.limits.memoryMb} MB): ${message}`];
    }
    return ['sandbox/guest-error', `${context}: ${message}`];
  }

  private overMemory(): boolean {
    const isolate = this.entry?.isolate;
    if (!isolate || isolate.isDisposed) return false;
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

  private remainingCpuMs(): number {
    return Math.max(1, Math.ceil(this.limits.cpuMs - this.cpuUsedMs()));
  }

  private wallMs(): number {
    return Math.round((performance.now() - this.started) * 1000) / 1000;
  }
}
