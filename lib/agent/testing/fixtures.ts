// Test fixtures for the agent: tool manifests, an in-memory tool host, a fake sandbox
// that maps code strings to scripted actions (evaluates nothing), and a provider wrapper
// that records every model request.

import type { HostCallHandler, Sandbox, SandboxJob, SandboxResult } from '../../sandbox/types';
import { extractAgentCode } from '../agent-code';
import type { ModelProvider, ModelRequest } from '../providers/types';
import type { AgentTool, AgentToolHost } from '../types';

export function tool(name: string, extra: Partial<AgentTool> = {}): AgentTool {
  return {
    name,
    sourceName: name,
    description: `${name} tool`,
    role: null,
    visibility: null,
    tags: [],
    params: { type: 'object', properties: { text: { type: 'string' } } },
    returns: null,
    capabilities: [],
    inputTokens: {},
    outputTokens: {},
    handler: { kind: 'js', ref: null },
    executor: null,
    timeoutMs: null,
    skill: 'demo',
    ...extra,
  };
}

export type ToolImpl = (args: any, opts?: { signal?: AbortSignal }) => unknown | Promise<unknown>;

export function toolHost(impls: Record<string, ToolImpl>, manifests?: AgentTool[]): AgentToolHost & { calls: Array<{ ref: string; args: unknown }> } {
  const calls: Array<{ ref: string; args: unknown }> = [];
  const list = manifests ?? Object.keys(impls).map((n) => tool(n));
  return {
    calls,
    async listTools() {
      return list;
    },
    async invoke(ref, args, opts) {
      calls.push({ ref, args });
      const impl = impls[ref];
      if (!impl) throw Object.assign(new Error(`no tool ${ref}`), { code: 'runtime/not-found' });
      return impl(args, opts);
    },
  };
}

export type FakeAction = (host: (method: string, ...args: unknown[]) => Promise<unknown>, globals: { memory: Record<string, unknown> }) => Promise<unknown>;

/** A Sandbox that looks the agent code up in `actions` instead of evaluating it. */
export function fakeSandbox(actions: Record<string, FakeAction>): Sandbox & { jobs: SandboxJob[] } {
  const jobs: SandboxJob[] = [];
  return {
    jobs,
    async run(job: SandboxJob, onHostCall: HostCallHandler): Promise<SandboxResult> {
      jobs.push(job);
      const code = extractAgentCode(job.source) ?? '';
      const action = actions[code];
      const memory = structuredClone((job.globals?.memory ?? {}) as Record<string, unknown>);
      if (!action) return { ok: false, error: { code: 'sandbox/compile-error', message: `fake sandbox: no action for ${JSON.stringify(code)}` } };
      try {
        const value = await action((m, ...a) => onHostCall(m, a), { memory });
        return { ok: true, value: value ?? null, globals: { memory, __agentLogs: [] }, stats: { wallMs: 0, cold: false } };
      } catch (err) {
        return { ok: false, error: { code: 'sandbox/guest-error', message: (err as Error).message }, globals: { memory, __agentLogs: [] } };
      }
    },
    async close() {},
  };
}

export function recording(provider: ModelProvider): ModelProvider & { requests: Array<Pick<ModelRequest, 'system' | 'messages' | 'tools'>> } {
  const requests: Array<Pick<ModelRequest, 'system' | 'messages' | 'tools'>> = [];
  return {
    name: provider.name,
    model: provider.model,
    requests,
    complete(req) {
      requests.push({ system: req.system, messages: structuredClone(req.messages), tools: req.tools });
      return provider.complete(req);
    },
  };
}
