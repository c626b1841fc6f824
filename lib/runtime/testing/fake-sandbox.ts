// A stand-in Sandbox for tests of the kernel (NOT isolation: node:vm in-process). It honours
// the contract of lib/sandbox/types.ts closely enough to exercise the real prelude, module
// wrapper and host-call bridge: JSON-only crossings, `host.<method>` limited to hostMethods,
// sandbox/* error codes, a wall-clock deadline. Real-sandbox tests use createSandboxPool().

import vm from 'node:vm';
import { transformSync } from 'esbuild';
import type { HostCallHandler, Sandbox, SandboxJob, SandboxResult } from '../../sandbox/types';

const json = <T>(v: T): T => (v === undefined ? v : JSON.parse(JSON.stringify(v)));

export function createFakeSandbox(): Sandbox & { jobs: SandboxJob[] } {
  const jobs: SandboxJob[] = [];
  return {
    jobs,
    async run(job: SandboxJob, onHostCall: HostCallHandler): Promise<SandboxResult> {
      jobs.push(job);
      const started = Date.now();
      const host: Record<string, (...a: unknown[]) => Promise<unknown>> = {};
      for (const m of job.hostMethods) host[m] = async (...a: unknown[]) => json(await onHostCall(m, json(a)));
      const context = vm.createContext({ host, ...json(job.globals ?? {}) });
      let entry: unknown;
      try {
        if (job.prelude) vm.runInContext(job.prelude, context);
        // An IIFE keeps the module's own top-level names (module, exports, require) in its scope.
        const iife = transformSync(job.source, { format: 'iife', globalName: '__fakeNamespace', loader: 'js' }).code;
        const ns = vm.runInContext(`${iife};\n__fakeNamespace`, context) as Record<string, unknown>;
        entry = ns[job.entry];
      } catch (err) {
        return { ok: false, error: { code: 'sandbox/compile-error', message: (err as Error).message } };
      }
      if (typeof entry !== 'function') return { ok: false, error: { code: 'sandbox/no-entry', message: `no export '${job.entry}'` } };
      const wallMs = job.limits?.wallMs ?? 5_000;
      let timer: NodeJS.Timeout | undefined;
      try {
        const value = await Promise.race([
          (entry as (...a: unknown[]) => unknown)(...json(job.args)),
          new Promise((_, reject) => (timer = setTimeout(() => reject(Object.assign(new Error('timed out'), { timeout: true })), wallMs))),
        ]);
        return { ok: true, value: json(value), stats: { wallMs: Date.now() - started, cold: true } };
      } catch (err) {
        const e = err as { message?: string; timeout?: boolean };
        return { ok: false, error: { code: e.timeout ? 'sandbox/timeout' : 'sandbox/guest-error', message: String(e.message ?? err) } };
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {},
  };
}
