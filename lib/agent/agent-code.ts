// Runs one `invoke` tool call: the model's JavaScript as an ES module in a sandbox
// isolate. The prelude builds the guest's `ctx` from host methods; `memory` travels in
// and out as a JSON global so that it persists across turns.

import type { HostCallHandler, Sandbox, SandboxJob, SandboxLimits } from '../sandbox';
import { AgentError, describeError } from './errors';
import type { InvokeOutcome } from './types';

export const AGENT_HOST_METHODS = ['invoke', 'finish', 'next'];

export const CODE_START = '/*<agent-code>*/';
export const CODE_END = '/*</agent-code>*/';

export const DEFAULT_AGENT_CODE_LIMITS: SandboxLimits = {
  memoryMb: 64,
  cpuMs: 2_000,
  wallMs: 60_000,
  maxResultBytes: 1_000_000,
  maxHostCalls: 200,
};

// Host calls are tracked so that an un-awaited ctx.finish()/ctx.invoke() still completes
// before the job ends, and a rejected finish() is reported instead of lost. The prelude
// runs once per context and a warm context may serve several jobs, so per-job state is
// reset by __agentBeginJob at the start of each job.
export const AGENT_PRELUDE = `(function () {
  const g = globalThis;
  let pending = new Set();
  g.__agentFinishError = null;
  g.__agentLogs = [];
  g.__agentBeginJob = () => { pending = new Set(); g.__agentFinishError = null; g.__agentLogs = []; };
  g.__agentSettle = async () => { while (pending.size) await Promise.allSettled([...pending]); };
  const track = (p, isFinish) => {
    pending.add(p);
    p.then(() => pending.delete(p), (e) => { pending.delete(p); if (isFinish) g.__agentFinishError = e; });
    return p;
  };
  const json = (v) => (v === undefined ? null : v);
  const manager = Object.freeze({
    invoke: (ref, args) => track(host.invoke(ref, json(args)), false),
    finish: (result) => track(host.finish(json(result)), true),
    next: () => track(host.next(), false),
  });
  g.ctx = Object.freeze({ invoke: manager.invoke, finish: manager.finish, next: manager.next, manager });
  const fmt = (v) => { if (typeof v === 'string') return v; try { return JSON.stringify(v); } catch (e) { return String(v); } };
  const log = (...a) => { if (g.__agentLogs.length < 100) g.__agentLogs.push(a.map(fmt).join(' ').slice(0, 2000)); };
  g.console = { log, info: log, warn: log, error: log, debug: log };
})();`;

export function agentModuleSource(code: string): string {
  return `export default async function () {
  globalThis.__agentBeginJob();
  const __value = await (async () => {
${CODE_START}
${code}
${CODE_END}
  })();
  await globalThis.__agentSettle();
  if (globalThis.__agentFinishError) throw globalThis.__agentFinishError;
  return __value === undefined ? null : __value;
}
`;
}

/** The code between the markers of a module built by agentModuleSource (for fakes and logs). */
export function extractAgentCode(source: string): string | null {
  const a = source.indexOf(CODE_START);
  const b = source.lastIndexOf(CODE_END);
  if (a === -1 || b === -1 || b < a) return null;
  return source
    .slice(a + CODE_START.length, b)
    .replace(/^\n/, '')
    .replace(/\n$/, '');
}

export type AgentCodeRun = {
  outcome: InvokeOutcome;
  memory: Record<string, unknown> | null;
};

export async function runAgentCode(
  sandbox: Sandbox,
  o: {
    key: string;
    /** the fair queue's principal (default: the key) */
    principal?: string;
    /** SandboxJob.confined */
    confined?: boolean;
    code: string;
    memory: Record<string, unknown>;
    limits?: SandboxLimits;
    signal: AbortSignal;
    onHostCall: HostCallHandler;
  },
): Promise<AgentCodeRun> {
  const job: SandboxJob = {
    key: o.key,
    ...(o.principal ? { principal: o.principal } : {}),
    ...(o.confined ? { confined: true } : {}),
    source: agentModuleSource(o.code),
    entry: 'default',
    args: [],
    hostMethods: AGENT_HOST_METHODS,
    prelude: AGENT_PRELUDE,
    globals: { memory: o.memory },
    returnGlobals: ['memory', '__agentLogs'],
    limits: { ...DEFAULT_AGENT_CODE_LIMITS, ...o.limits },
    // the pool stops the job and disposes its isolate; the race below covers any other Sandbox
    signal: o.signal,
  };
  if (o.signal.aborted) throw new AgentError('agent/cancelled', 'run cancelled');
  let onAbort = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(new AgentError('agent/cancelled', 'run cancelled'));
    o.signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    const res = await Promise.race([sandbox.run(job, o.onHostCall), aborted]);
    const g = res.globals ?? {};
    const logs = Array.isArray(g.__agentLogs) ? (g.__agentLogs as unknown[]).map(String) : [];
    const memory = isPlainObject(g.memory) ? (g.memory as Record<string, unknown>) : null;
    if (res.ok) return { outcome: { ok: true, value: res.value ?? null, logs, finished: false }, memory };
    return { outcome: { ok: false, error: describeError(res.error), logs }, memory };
  } finally {
    o.signal.removeEventListener('abort', onAbort);
  }
}

function isPlainObject(v: unknown): boolean {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}
