// Public types of the kernel: who calls, what is loaded, and what the manager offers.

import type { HandlerKind, SkillManifest, ToolManifest } from '../skills';
import type { Sandbox, SandboxLimits } from '../sandbox';
import type { CapabilityProviders } from './capabilities/types';

/**
 * A token the caller holds. `onlyForScope`: a team's connection, lent to a member for the
 * tools of that team's own skills (`@<scope>/…`) and nobody else's.
 */
export type HeldToken = { id: string; issuer: string; claims: string[]; expiresAt: Date | null; secret: string; onlyForScope?: string };

export type Caller = {
  id: string;
  kind: 'user' | 'team' | 'anonymous';
  tokens: HeldToken[];
  /**
   * Whose share of the sandbox's fair queue this caller's jobs take; default the caller
   * id. Anonymous callers on the server share their network address's (`anon:…`, lib/principal), so that
   * fresh cookies or none do not buy an attacker more shares than one visitor has.
   */
  queueKey?: string;
};

/** A skill ready to run: its manifest and a way to read its package files. */
export type LoadedSkill = {
  manifest: SkillManifest;
  readFile(path: string): Promise<string>;
  /** a file's bytes (assets a subprocess handler reads); readFile's text when absent */
  readBytes?(path: string): Promise<Uint8Array>;
  /** registry scope (`@scope/name` → 'scope'); tools may mint only issuers `@<scope>/...` */
  scope?: string | null;
  /** changes whenever the content does (a stored version's id): lets compiled handlers be shared across managers */
  revision?: string;
  /**
   * the stored skill's own id: a skill deleted and later published again under the same
   * `@scope/name` (a deleted team's name taken by someone else) is a different one, and its
   * token signing key differs, so it never accepts the tokens the old one signed
   */
  identity?: string;
};

/** Compiled handler modules by key; a manager makes its own unless the server shares one (bounded) across requests. */
export type ModuleCache = {
  get(key: string): Promise<string> | undefined;
  set(key: string, value: Promise<string>): unknown;
  delete(key: string): unknown;
};

/** How a handler expects to be called (decided per format, see conventions.ts). */
export type HandlerConvention = 'agent-apps' | 'skill-tools' | 'malv' | 'rye';

/** A token as a tool sees it: only tokens its manifest declares, with `expired` spelled out. */
export type GrantedToken = { id: string; issuer: string; claims: string[]; expiresAt: string | null; expired: boolean; secret: string };

/** The host-side context of one invocation (what host middleware sees). */
export type ToolContext = {
  readonly args: unknown;
  locals: { result?: unknown; [key: string]: unknown };
  readonly skill: { name: string; format: SkillManifest['format'] };
  readonly tool: { name: string; role: ToolManifest['role'] };
  readonly caller: { id: string; kind: Caller['kind'] };
  readonly tokens: GrantedToken[];
  readonly depth: number;
  manager: {
    invoke(ref: string, args?: unknown): Promise<unknown>;
    finish(result: unknown): void;
    next(): Promise<unknown>;
  };
};

/** A host middleware layer: `fn(ctx, args)` in the onion around every tool. */
export type HostMiddleware = {
  name: string;
  fn: (ctx: ToolContext, args: unknown) => unknown | Promise<unknown>;
  args?: unknown;
};

/** A guest's call to the host: `method` as in guest.ts (`net_fetch`, `storage_put`, `invoke`...). */
export type HostCallSeen = { skill: string; tool: string; method: string; args: readonly unknown[] };

export type InvokeEvent =
  | { type: 'tool-start'; skill: string; tool: string; depth: number; timestamp: number }
  | { type: 'tool-end'; skill: string; tool: string; depth: number; timestamp: number; ms: number; ok: boolean; code?: string };

export type ToolManagerOptions = {
  skills: LoadedSkill[];
  caller: Caller;
  sandbox: Sandbox;
  providers?: CapabilityProviders;
  allowSubprocess?: boolean;
  /** nesting limit for tool → tool calls (default 8) */
  maxDepth?: number;
  /** most invocations in one top-level call tree (default 64) */
  maxCalls?: number;
  /** the outside caller's own allowed-tools spec (for example the agent policy); null = all */
  allowedTools?: string | null;
  /** host middleware, outermost first, around every tool */
  middleware?: HostMiddleware[];
  /** sandbox limits for JS handlers (tool.timeoutMs overrides wallMs) */
  limits?: SandboxLimits;
  /** subprocess limits */
  subprocess?: { timeoutMs?: number; maxOutputBytes?: number; python?: string; bash?: string };
  /** the `__workDir` string JS Skill Tools handlers see (they have no file system); default '/workspace' */
  workDir?: string;
  /** contextual data `$resolve` paths are looked up in */
  resolveContext?: Record<string, unknown>;
  onEvent?: (event: InvokeEvent) => void;
  /**
   * Sees every host call a sandboxed tool makes (the publish-time evidence run records
   * them, lib/evidence); an error returned is the call's answer (the call is refused).
   */
  onHostCall?: (call: HostCallSeen) => Error | void;
  /** compiled handler modules, shared across managers by the server (keys include the skill's revision) */
  moduleCache?: ModuleCache;
  /**
   * The caller's held tokens read again (an expired OAuth connection refreshed first): the
   * kernel asks when one it holds has expired or is about to, so that a long run or
   * session keeps working past a token's lifetime. Absent: the tokens stay as given.
   */
  refreshHeld?: () => Promise<HeldToken[]>;
};

export type ToolSummary = {
  ref: string;
  skill: string;
  name: string;
  description: string;
  role: ToolManifest['role'];
  params: Record<string, unknown> | null;
  returns: Record<string, unknown> | null;
  capabilities: string[];
  tags: string[];
  /** how its handler runs (python and bash are subprocesses; mcp reaches another server) */
  handler?: HandlerKind;
  /** token issuers the tool mints (its output tokens) */
  mints?: string[];
};

export type PlanStep =
  | { kind: 'oauth'; provider: string; issuer: string; claims: string[]; label: string }
  | { kind: 'tool'; ref: string; issuer: string; claims: string[]; usable: boolean; label: string };

export type PlanMissing = { issuer: string; claim: string; reason: 'missing' | 'expired' };

export type Plan = {
  ref: string;
  usable: boolean;
  missing: PlanMissing[];
  /** per missing (issuer, claims): the ways to obtain them; empty `options` = nothing known unlocks it */
  unlocks: Array<{ issuer: string; claims: string[]; options: PlanStep[] }>;
};

export type ToolManager = {
  invoke(ref: string, args?: unknown): Promise<unknown>;
  listVisibleTools(): ToolSummary[];
  describe(ref: string): ToolSummary;
  plan(ref: string): Plan;
  /** the caller's tokens, including any minted during this manager's life */
  heldTokens(): HeldToken[];
};
