// The Sandbox without worker processes: isolates live in the caller's process. Same
// limits, bridge and queueing as the pool, but a catastrophic isolate error is the
// caller's problem, so the server uses worker processes; this is for benchmarks and CLI.
import { SandboxEngine, callHandlerRaw, decodeRawResult, type RawHostCall } from './engine';
import { failed } from './errors';
import type { SandboxPool } from './pool';
import type { HostCallHandler, SandboxJob, SandboxLimits, SandboxResult } from './types';

type Options = { slots: number; queueLimit: number; defaultLimits?: SandboxLimits; maxIdleIsolates?: number; spareIsolates?: number };
type Waiting = { job: SandboxJob; handler: HostCallHandler; resolve: (result: SandboxResult) => void };

export function createInProcessSandbox(options: Options): SandboxPool {
  const engine = new SandboxEngine({
    defaultLimits: options.defaultLimits,
    maxIdleIsolates: options.maxIdleIsolates,
    spareIsolates: options.spareIsolates,
    onCatastrophicError: (message) => process.emitWarning(`sandbox: catastrophic isolate error, engine disabled: ${message}`),
  });
  const queue: Waiting[] = [];
  let running = 0;
  let closed = false;

  const pump = () => {
    while (running < options.slots && queue.length > 0) {
      const w = queue.shift()!;
      launch(w.job, w.handler).then(w.resolve);
    }
  };
  // A job waiting on a host call gives up its slot meanwhile: the host call may itself run
  // a sandbox job (a tool invoked from agent code), which must not wait behind its caller.
  const parking = (handler: HostCallHandler): RawHostCall => {
    let outstanding = 0;
    return async (method, argsJson) => {
      if (outstanding++ === 0) {
        running--;
        pump();
      }
      try {
        return await callHandlerRaw(handler, method, argsJson);
      } finally {
        if (--outstanding === 0) running++;
      }
    };
  };
  const launch = (job: SandboxJob, handler: HostCallHandler): Promise<SandboxResult> => {
    running++;
    return engine.runRaw(job, parking(handler)).then((raw) => {
      running--;
      pump();
      return decodeRawResult(raw);
    });
  };

  return {
    run(job, handler) {
      if (closed) return Promise.resolve(failed('sandbox/closed', 'the sandbox is closed'));
      if (running < options.slots) return launch(job, handler);
      if (queue.length >= options.queueLimit) return Promise.resolve(failed('sandbox/queue-full', `the sandbox queue is full (${options.queueLimit} jobs waiting)`));
      return new Promise((resolve) => queue.push({ job, handler, resolve }));
    },
    async close() {
      closed = true;
      for (const w of queue.splice(0)) w.resolve(failed('sandbox/closed', 'the sandbox was closed before the job ran'));
      engine.close();
    },
    stats() {
      return { workers: 0, ready: 0, running, queued: queue.length, restarts: 0, retried: 0, lane: 'in-process' };
    },
    workerPids() {
      return [];
    },
  };
}
