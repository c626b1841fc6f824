// Public types of the agent: the tool host it drives, the hook protocol between the
// policy (run-agent.ts) and the LLM loop (provider-loop.ts), the trace events, and the
// options/result of runAgent.

import type { Sandbox, SandboxLimits } from '../sandbox';
import type { ToolManifest } from '../skills';
import type { ModelProvider, RetryInfo, Usage } from './providers/types';

export type AgentTool = ToolManifest & { skill: string };

/** What the agent needs from the runtime's tool manager (the lead adapts lib/runtime to it). */
export interface AgentToolHost {
  /** tools the caller may see (tokens and visibility of the caller already applied) */
  listTools(): Promise<AgentTool[]>;
  /** the full invoke pipeline for a bare tool name */
  invoke(ref: string, args: unknown, opts?: { signal?: AbortSignal }): Promise<unknown>;
  /** for a name the agent may not call: what unlocks it, when a missing token is why (null otherwise) */
  whyUnavailable?(ref: string): string | null;
  /** middleware mode: advance the served pipeline (`ctx.next()` in agent code) */
  next?(): Promise<unknown>;
}

export type AgentMode = 'constrained' | 'discovery';

// ---- hook protocol (seed: "Writing a Custom Agent Provider") ----

export type HookEvent =
  | { type: 'turn-start'; turnNumber: number }
  | { type: 'message'; text: string; delta: boolean; turnNumber: number }
  | { type: 'reasoning'; text: string; delta: boolean; turnNumber: number }
  | { type: 'tool-call'; tool: string; args: unknown; id: string; turnNumber: number }
  | { type: 'tool-result'; tool: string; args: unknown; result: InvokeOutcome; id: string; turnNumber: number }
  | { type: 'turn-end'; result: string; turnNumber: number; toolCalls: number }
  | { type: 'error'; error: { code: string; message: string }; attempt: number; turnNumber: number }
  | ({ type: 'retry'; turnNumber: number } & RetryInfo);

export type Directive = { stop: true; result?: unknown } | { continue: true; message?: string } | { deny: string } | { allow: true } | undefined;

/** The outcome of one `invoke` tool call (one run of agent code), as the model sees it. */
export type InvokeOutcome = { ok: true; value: unknown; logs: string[]; finished: boolean } | { ok: false; error: { code: string; message: string }; logs: string[] };

// ---- trace events ----

type Base = { timestamp: number; seq: number; provider: string; runId: string };
type Err = { code: string; message: string };

export type AgentEvent = Base &
  (
    | {
        type: 'agent-start';
        name: string | null;
        model: string | null;
        mode: AgentMode;
        tools: string[];
        maxTurns: number;
        maxSteps: number;
        persistent: boolean;
        returns: boolean;
      }
    | { type: 'turn-start'; turnNumber: number }
    | { type: 'message'; turnNumber: number; text: string; delta: boolean }
    | { type: 'reasoning'; turnNumber: number; text: string; delta: boolean }
    | { type: 'tool-call'; turnNumber: number; callId: string; tool: string; args: unknown; via: 'model' | 'code'; denied?: string }
    | { type: 'tool-result'; turnNumber: number; callId: string; tool: string; result: unknown; via: 'model' | 'code'; durationMs: number; logs?: string[] }
    | { type: 'tool-error'; turnNumber: number; callId: string; tool: string; error: Err; via: 'model' | 'code'; durationMs: number; logs?: string[] }
    | { type: 'turn-end'; turnNumber: number; text: string; toolCalls: number; finished: boolean; directive: Directive | null; usage?: Usage }
    | { type: 'agent-message'; turnNumber: number; text: string }
    | { type: 'error'; turnNumber: number; error: Err; attempt: number }
    | ({ type: 'retry'; turnNumber: number; scope: 'request' | 'turn' } & RetryInfo)
    | { type: 'agent-error'; error: Err; turns: number; steps: number }
    | { type: 'agent-complete'; result: unknown; finished: boolean; turns: number; steps: number }
  );

export type AgentEventType = AgentEvent['type'];

export const AGENT_EVENT_TYPES: readonly AgentEventType[] = [
  'agent-start',
  'turn-start',
  'message',
  'reasoning',
  'tool-call',
  'tool-result',
  'tool-error',
  'turn-end',
  'agent-message',
  'error',
  'retry',
  'agent-error',
  'agent-complete',
];

// ---- runAgent ----

export type UserHook = (event: HookEvent) => Directive | void | Promise<Directive | void>;

export type RunAgentOptions = {
  /** the user's message (the task) */
  task: string;
  /** extra system instructions (the skill's prompt) */
  prompt?: string;
  provider: ModelProvider;
  tools: AgentToolHost;
  sandbox: Sandbox;
  /** space-delimited globs with optional specifiers `tool(key=value,$deny)`; null/absent = discovery mode */
  allowedTools?: string | null;
  /** JSON Schema the final result must match (enforced with a reminder turn) */
  returns?: Record<string, unknown> | null;
  /** seeds the sandbox's `memory` global before the first turn (JSON) */
  memory?: Record<string, unknown>;
  /** default 30; Infinity in persistent mode */
  maxTurns?: number;
  /** most `invoke` tool calls across all turns; default 30 */
  maxSteps?: number;
  /** loop forever, retrying errors with backoff capped at 30 s (incompatible with returns) */
  persistent?: boolean;
  /** persistent-mode backoff (defaults: base 1 s, cap 30 s) */
  backoff?: { baseMs?: number; capMs?: number };
  /** display name of this agent invocation */
  name?: string;
  /** the tool whose pipeline started this agent: excluded unless allowedTools names it */
  skillName?: string;
  /** more tool names never offered (the agent and its providers are always excluded) */
  excludeTools?: string[];
  /** lifecycle hook consulted before the policy's defaults; may return a directive */
  hooks?: UserHook;
  /** every trace event, as it happens */
  onEvent?: (event: AgentEvent) => void;
  signal?: AbortSignal;
  runId?: string;
  /**
   * who the agent's code runs for in the sandbox's fair queue (lib/principal's key: the
   * run's owner or address); without it each run is a principal of its own, so one caller
   * with many runs would take many shares
   */
  principal?: string;
  /** the agent's code runs only where confined callers' code runs (SandboxJob.confined): for runs of anonymous callers */
  confineCode?: boolean;
  /** limits for each run of agent code */
  sandboxLimits?: SandboxLimits;
  /** largest tool result fed back to the model, in characters (default 16,000) */
  maxToolResultChars?: number;
};

export type RunAgentResult = {
  status: 'completed' | 'failed' | 'cancelled';
  /** the ctx.finish() value, or the model's final text when it never called finish */
  result: unknown;
  finished: boolean;
  text: string;
  error: { code: string; message: string } | null;
  turns: number;
  steps: number;
  memory: Record<string, unknown>;
  provider: string;
  model: string | null;
  mode: AgentMode;
  usage: Usage;
  trace: AgentEvent[];
};
