// One job's run in a SandboxEngine: checks out a warm isolate or builds one (a spare
// blank isolate, code cache), runs the guest in synchronous segments under the CPU and
// wall-clock budget, answers its host calls, checks the heap, and settles exactly once.
import ivm from 'isolated-vm';
import { cacheOptions } from './code-cache';
import type { SandboxEngine } from './engine';
import { FATAL_CODES } from './errors';
import { principalOf } from './fair-queue';
import { disposeWarmIsolate, type Fingerprint, type WarmIsolate } from './isolate-cache';
import { MAX_JSON_DEPTH, jsonDeeperThan } from './json';
import type { ResolvedLimits } from './limits';
import { rawFailure, messageOf, hostErrorJson, type RawHostCall, type RawResult } from './raw-result';
import type { SandboxErrorCode, SandboxJob } from './types';

const MODULE_FILENAME = 'file:///sandbox/module.js';

let lastSeq = 0;

export type Encoded = { argsJson: string; globalsJson: string | undefined; returnJson: string | undefined };

/** What a segment returns (bootstrap.ts): [q, s, j, g, x, ...4 slots per requested host call]. */
type Outbox = unknown[];

/** heap statistics are read after a job when it used this much CPU, or every Nth use */
const HEAP_CHECK_CPU_MS = 2;
const HEAP_CHECK_EVERY = 8;

export class JobRun {
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
    // the bridge keeps the entry and limits of the isolate's last full call (bootstrap.ts)
    const config = `${this.job.entry}\n${this.limits.maxHostCalls}\n${this.limits.maxResultBytes}`;
    const short = globalsJson === undefined && returnJson === undefined && entry.runConfig === config;
    const args = short ? [this.seq, argsJson] : [this.seq, argsJson, this.job.entry, globalsJson, returnJson, this.limits.maxHostCalls, this.limits.maxResultBytes];
    entry.runConfig = null;
    this.segment((timeout) => {
      const box = run.applySync(undefined, args, { timeout, result: { copy: true } });
      entry.runConfig = config;
      return box;
    });
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
      entry.principal = principalOf(this.job);
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
    const watched = this.engine.watched;
    this.inSegment = true;
    if (watched) this.engine.segment(this.job, Date.now() + timeout);
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
      if (watched) this.engine.segment(null, 0);
    }
    if (this.deferred) {
      const [code, message] = this.deferred;
      return this.fail(code, message);
    }
    if (Array.isArray(box)) {
      if (box[4] === 1) return this.fail('sandbox/too-many-host-calls', `the job made more than ${this.limits.maxHostCalls} host calls`);
      // the bridge appends at most four slots per allowed host call: anything longer was not its doing
      if (box.length > 5 + 4 * this.limits.maxHostCalls) return this.finish(rawFailure('sandbox/guest-error', 'the sandbox bridge returned a malformed outbox'), true);
      for (let i = 5; i + 3 < box.length && !this.settled; i += 4) {
        const seq = box[i],
          id = box[i + 1],
          method = box[i + 2],
          argsJson = box[i + 3];
        if (seq === this.seq && typeof id === 'number' && typeof method === 'string' && typeof argsJson === 'string') {
          this.onSend(id, method, argsJson);
        }
      }
      const [q, status, json, gjson] = box;
      if (q === this.seq && typeof status === 'string' && !this.outcome) {
        this.outcome = { status, json: typeof json === 'string' ? json : undefined, gjson: typeof gjson === 'string' ? gjson : undefined };
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
    this.timer ??= setTimeout(() => this.fail('sandbox/timeout', `the job exceeded its wall-clock limit of ${this.limits.wallMs} ms`), this.remainingWallMs());
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
      // a guest's arguments cross to the host (and, from a worker, over the pipe to the web process): bounded
      const limit = this.limits.maxHostCallBytes;
      if (argsJson.length > limit || (argsJson.length * 3 > limit && Buffer.byteLength(argsJson) > limit)) {
        throw new Error(`host call arguments are larger than ${limit} bytes`);
      }
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
    const cpuMs = Math.round(Math.max(this.cpuUsed, this.cpuUsedMs()));
    const entry = this.entry;
    this.entry = null;
    if (entry) {
      // Reuse only an isolate that is idle and healthy; anything else is disposed, which
      // also stops whatever guest code is still running in it.
      entry.uses++;
      if (fatal || entry.isolate.isDisposed || !entry.run || entry.setNamespace) disposeWarmIsolate(entry);
      else this.engine.checkin(entry);
    }
    this.resolve({ ...result, cpuMs });
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
