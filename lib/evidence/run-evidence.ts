// Runs a published version's tools on their examples in the sandbox, as nobody: no user
// tokens, no secrets, storage in memory for this run only, every network request
// recorded and answered with a refusal, each call bounded in wall time, CPU and memory
// (a tool's own longer `timeout` does not lift the bound). Records per example the
// outcome against its expected result and what the code attempted; an attempt outside
// the declared permissions carries the line of code that made it (locate-line.ts).
import {
  allowedHostsOf,
  createHmacTokenSigner,
  createMemoryEnvironment,
  createMemoryEventBus,
  createMemoryStorage,
  createMemoryVault,
  createToolManager,
  globMatch,
  RuntimeError,
  type HostCallSeen,
  type LoadedSkill,
} from '../runtime';
import { setting, type Env } from '../config';
import type { Sandbox } from '../sandbox';
import type { SkillManifest, ToolManifest } from '../skills';
import { exampleCallsFor } from './example-calls';
import { locateLine, needlesFor, type SourceFile } from './locate-line';
import type { Attempt, AttemptKind, Evidence, ExampleEvidence, ExampleOutcome, ToolEvidence } from './types';

export type EvidenceLimits = { wallMs: number; cpuMs: number; memoryMb: number };

/** SKILLYARD_EVIDENCE_WALL_MS (default 5000) and SKILLYARD_EVIDENCE_MEMORY_MB (default 64) per example call. */
export function evidenceLimits(env?: Env): EvidenceLimits {
  const wallMs = setting('SKILLYARD_EVIDENCE_WALL_MS', env);
  return { wallMs, cpuMs: wallMs, memoryMb: setting('SKILLYARD_EVIDENCE_MEMORY_MB', env) };
}

export type EvidenceInput = {
  scope: string;
  manifest: SkillManifest;
  /** the package's files as text (code files are all a run reads) */
  files: Map<string, string>;
  /** the version's id: the run's identity and its compiled-module revision */
  versionId: string;
  sandbox: Sandbox;
  limits?: EvidenceLimits;
};

const RUNNABLE = new Set(['js', 'ts', 'inline-code']);
const STOPPED = new Set(['sandbox/timeout', 'sandbox/cpu-limit', 'sandbox/memory-limit', 'runtime/timeout', 'sandbox/worker-crashed']);
const MAX_ATTEMPTS = 50;
/** example calls one version gets in all (256 tools of 8 looping examples held the queue for hours) */
export const MAX_EVIDENCE_CALLS = 24;
/** and the wall time they share, in example-call deadlines */
const BUDGET_DEADLINES = 12;
const MAX_RESULT_CHARS = 4096;
const CODE_FILE = /\.(m?js|cjs|ts|mts|cts|md)$/i;

const METHOD_KIND: Record<string, AttemptKind> = {
  net_fetch: 'net',
  storage_get: 'storage',
  storage_put: 'storage',
  storage_delete: 'storage',
  storage_list: 'storage',
  tool_invoke: 'tool',
  invoke: 'tool',
  next: 'tool',
  token_sign: 'token',
  token_verify: 'token',
  token_mint: 'token',
  environment_get: 'secret',
  event_publish: 'event',
  event_subscribe: 'event',
  event_unsubscribe: 'event',
  ai_complete: 'ai',
  object_create: 'object',
};

function skippedBecause(tool: ToolManifest): string | null {
  if (tool.role === 'middleware') return 'middleware runs around other tools, not on its own';
  const gated = Object.keys(tool.inputTokens ?? {});
  if (gated.length) return `it needs a token (${gated.slice(0, 3).join(', ')}) and publish-time runs hold none`;
  const kind = tool.handler.kind;
  if (RUNNABLE.has(kind)) return null;
  if (kind === 'markdown') return 'instructions for an agent: no code to run';
  if (kind === 'python' || kind === 'bash') return 'script handlers run in a subprocess, which publish-time runs do not start';
  if (kind === 'mcp') return "an MCP server's tool: its code is not in the package";
  return 'no handler';
}

/** JSON-equal (key order ignored): what "gives the expected result" means. */
export function sameJson(a: unknown, b: unknown): boolean {
  const norm = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(norm);
    if (v && typeof v === 'object')
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((k) => [k, norm((v as Record<string, unknown>)[k])]),
      );
    return v === undefined ? null : v;
  };
  return JSON.stringify(norm(a)) === JSON.stringify(norm(b));
}

function clipped(value: unknown): unknown {
  let text: string;
  try {
    text = JSON.stringify(value ?? null);
  } catch {
    return '(a result that is not JSON)';
  }
  return text.length <= MAX_RESULT_CHARS ? JSON.parse(text) : `${text.slice(0, MAX_RESULT_CHARS)}… (cut)`;
}

function hostAllowed(rawUrl: string, hosts: string[]): { host: string; allowed: boolean } {
  try {
    const url = new URL(rawUrl);
    const host = url.hostname.toLowerCase();
    const hostPort = url.port ? `${host}:${url.port}` : host;
    return { host: url.host, allowed: hosts.some((h) => globMatch(h, h.includes(':') ? hostPort : host)) };
  } catch {
    return { host: rawUrl.slice(0, 200), allowed: false };
  }
}

/** The source a tool's attempts are looked up in: its handler file first, then the package's other code. */
function sourcesFor(tool: ToolManifest, files: Map<string, string>): SourceFile[] {
  const first = tool.handler.ref && files.has(tool.handler.ref) ? [tool.handler.ref] : [];
  const rest = [...files.keys()].filter((f) => CODE_FILE.test(f) && !first.includes(f)).sort();
  return [...first, ...rest].map((file) => ({ file, text: files.get(file)! }));
}

export async function runEvidence(input: EvidenceInput): Promise<Evidence> {
  const started = Date.now();
  const limits = input.limits ?? evidenceLimits();
  const hosts = allowedHostsOf(input.manifest.metadata);
  // a tool's own timeout never lifts the bound of a publish-time run
  const manifest: SkillManifest = {
    ...input.manifest,
    tools: input.manifest.tools.map((t) => ({ ...t, timeoutMs: Math.min(t.timeoutMs ?? limits.wallMs, limits.wallMs) })),
  };
  const skill: LoadedSkill = {
    manifest,
    scope: input.scope,
    revision: `evidence:${input.versionId}`,
    identity: `evidence:${input.versionId}`,
    async readFile(path) {
      const text = input.files.get(path);
      if (text === undefined) throw new RuntimeError('runtime/file-not-found', `${path} is not in the package`);
      return text;
    },
  };
  let current: { attempts: Attempt[]; sources: SourceFile[] } | null = null;
  const toolByName = new Map(manifest.tools.map((t) => [t.name, t]));

  const record = (seen: HostCallSeen): Error | void => {
    const kind = METHOD_KIND[seen.method] ?? 'capability';
    let attempt: Attempt;
    if (kind === 'net') {
      const target = String(seen.args[0] ?? '');
      const { host, allowed } = hostAllowed(target, hosts);
      attempt = { kind, method: seen.method, target: host, declared: allowed, refused: true };
      if (!allowed) attempt.where = locateLine(sourcesFor(toolByName.get(seen.tool) ?? manifest.tools[0], input.files), needlesFor('net', target, seen.method));
    } else {
      const target = kind === 'storage' ? String(seen.args[1] ?? '') : kind === 'tool' ? String(seen.args[0] ?? '') : kind === 'secret' ? String(seen.args[0] ?? '') : seen.method;
      attempt = { kind, method: seen.method, target: target.slice(0, 200), declared: true, refused: false };
    }
    if (current && current.attempts.length < MAX_ATTEMPTS) current.attempts.push(attempt);
    if (kind === 'net') {
      return new RuntimeError('capability/denied', `net.fetch ${attempt.target}: refused; the registry's publish-time run records network requests and answers none`);
    }
  };

  const manager = createToolManager({
    skills: [skill],
    caller: { id: `evidence:${input.versionId}`, kind: 'anonymous', tokens: [], queueKey: 'evidence' },
    sandbox: input.sandbox,
    providers: {
      storage: createMemoryStorage(),
      signer: createHmacTokenSigner(),
      vault: createMemoryVault(),
      environment: createMemoryEnvironment(),
      events: createMemoryEventBus(),
      onObject: () => {},
    },
    allowSubprocess: false,
    limits: { wallMs: limits.wallMs, cpuMs: limits.cpuMs, memoryMb: limits.memoryMb },
    onHostCall: record,
  });

  const tools: ToolEvidence[] = [];
  let calls = 0;
  for (const tool of manifest.tools) {
    const spent = calls >= MAX_EVIDENCE_CALLS || Date.now() - started >= BUDGET_DEADLINES * limits.wallMs;
    const skipped = spent
      ? `the publish-time run's budget (${MAX_EVIDENCE_CALLS} calls, ${(BUDGET_DEADLINES * limits.wallMs) / 1000} s) was used by the tools before it`
      : skippedBecause(tool);
    if (skipped) {
      tools.push({ tool: tool.name, handler: tool.handler.kind, skipped, examples: [] });
      continue;
    }
    const sources = sourcesFor(tool, input.files);
    const examples: ExampleEvidence[] = [];
    for (const call of exampleCallsFor(tool).slice(0, MAX_EVIDENCE_CALLS - calls)) {
      calls++;
      current = { attempts: [], sources };
      const t0 = Date.now();
      let outcome: ExampleOutcome;
      let result: unknown;
      let error: { code: string; message: string } | undefined;
      try {
        // the sandbox stops the job at wallMs; this deadline also covers the host side
        result = await withDeadline(manager.invoke(tool.name, call.arguments), limits.wallMs + 2000);
        outcome = call.hasExpected ? (sameJson(result, call.expected) ? 'passed' : 'failed') : 'ran';
      } catch (err) {
        const e = err as { code?: string; message?: string };
        error = { code: typeof e?.code === 'string' ? e.code : 'tool/failed', message: String(e?.message ?? err).slice(0, 500) };
        outcome = STOPPED.has(error.code) ? 'stopped' : call.hasExpected ? 'failed' : 'error';
        const undeclared = undeclaredAttempt(error, sources);
        if (undeclared && current.attempts.length < MAX_ATTEMPTS) current.attempts.push(undeclared);
      }
      examples.push({
        label: call.label,
        source: call.source,
        arguments: call.arguments,
        ...(call.hasExpected ? { expected: call.expected } : {}),
        outcome,
        ...(error ? { error } : { result: clipped(result) }),
        durationMs: Date.now() - t0,
        attempts: current.attempts,
      });
    }
    tools.push({ tool: tool.name, handler: tool.handler.kind, examples });
  }
  current = null;
  const flagged = tools.reduce((n, t) => n + t.examples.reduce((m, e) => m + e.attempts.filter((a) => !a.declared).length, 0), 0);
  return {
    version: 1,
    ranAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    limits: { wallMs: limits.wallMs, memoryMb: limits.memoryMb },
    flagged,
    tools,
  };
}

/** A capability the tool never declared, or a global the sandbox does not have (fetch): the guest saw it refused. */
function undeclaredAttempt(error: { code: string; message: string }, sources: SourceFile[]): Attempt | null {
  const cap = /capability "([a-z]+)" is not declared/.exec(error.message);
  if (error.code === 'capability/not-declared' && cap) {
    return { kind: 'capability', method: 'capability', target: cap[1], declared: false, refused: true, where: locateLine(sources, needlesFor('capability', cap[1], '')) };
  }
  const global = /\b(fetch|XMLHttpRequest|WebSocket|require|process) is not defined/.exec(error.message);
  if (global) {
    const kind: AttemptKind = global[1] === 'require' || global[1] === 'process' ? 'capability' : 'net';
    return { kind, method: global[1], target: global[1], declared: false, refused: true, where: locateLine(sources, [`${global[1]}(`, global[1]]) };
  }
  return null;
}

function withDeadline<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RuntimeError('runtime/timeout', `no answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, deadline]).finally(() => clearTimeout(timer));
}
