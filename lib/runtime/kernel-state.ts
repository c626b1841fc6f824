// What one tool manager holds while it lives: the tool index, the caller's tokens, the
// parsed allowed-tools specs, compiled handler modules and per-tool facts. The step
// functions (invoke-tool.ts, run-handler.ts, run-sandboxed.ts) receive it instead of
// closing over a dozen variables.

import type { SandboxJob } from '../sandbox';
import { parseAllowedTools, type AllowedToolsSpec } from './allowed-tools';
import { grantedCapabilities, hostMethodsFor } from './capabilities/grant';
import type { CapabilityName, CapabilityProviders } from './capabilities/types';
import { conventionFor } from './conventions';
import { resolveJsonSchema } from './schema';
import { createToolIndex, type ToolEntry, type ToolIndex } from './tool-index';
import type { HandlerConvention, HeldToken, LoadedSkill, ModuleCache, ToolManagerOptions } from './types';

export const DEFAULT_MAX_DEPTH = 8;
export const DEFAULT_MAX_CALLS = 64;

/** Who makes a call: nobody (outside), or a skill (its tool, or an event delivery). */
export type Origin = { skill: LoadedSkill; depth: number; tree: { calls: number } } | null;
/** One invocation in a call tree. */
export type Frame = { entry: ToolEntry; depth: number; tree: { calls: number } };

export type ToolStatics = { convention: HandlerConvention; granted: CapabilityName[]; hostMethods: string[] };

export type KernelState = {
  opts: ToolManagerOptions;
  index: ToolIndex;
  held: HeldToken[];
  /** when refreshHeld was last asked (epoch ms; 0 = never) */
  heldRefreshedAt: number;
  providers: CapabilityProviders;
  maxDepth: number;
  maxCalls: number;
  outsideSpec: AllowedToolsSpec | null;
  skillSpecs: Map<LoadedSkill, AllowedToolsSpec | null>;
  modules: ModuleCache;
  statics: Map<ToolEntry, ToolStatics>;
  /** the pipeline entry (invoke-tool.ts), set by the manager so steps can nest calls */
  invoke(origin: Origin, ref: string, args: unknown): Promise<unknown>;
  /** sandbox limits merged into every job */
  limits: SandboxJob['limits'];
};

export function createKernelState(opts: ToolManagerOptions, invoke: KernelState['invoke']): KernelState {
  return {
    opts,
    index: createToolIndex(opts.skills),
    held: [...opts.caller.tokens],
    heldRefreshedAt: 0,
    providers: opts.providers ?? {},
    maxDepth: opts.maxDepth ?? DEFAULT_MAX_DEPTH,
    maxCalls: opts.maxCalls ?? DEFAULT_MAX_CALLS,
    outsideSpec: parseAllowedTools(opts.allowedTools ?? null),
    skillSpecs: new Map(opts.skills.map((s) => [s, parseAllowedTools(s.manifest.allowedTools)])),
    modules: opts.moduleCache ?? new Map(),
    statics: new Map(),
    invoke,
    limits: opts.limits,
  };
}

/** Per-tool facts that never change while the manager lives (computed on first use). */
export function staticsOf(k: KernelState, entry: ToolEntry): ToolStatics {
  let s = k.statics.get(entry);
  if (!s) {
    const convention = conventionFor(entry.skill.manifest, entry.tool);
    const granted = grantedCapabilities(entry.tool);
    const hostMethods = hostMethodsFor(granted);
    if (convention === 'agent-apps') hostMethods.push('invoke', 'next');
    s = { convention, granted, hostMethods };
    k.statics.set(entry, s);
  }
  return s;
}

export const namesOf = (e: ToolEntry) => [e.tool.name, e.ref];

export function schemaOf(k: KernelState, s: Record<string, unknown> | null) {
  return resolveJsonSchema(s, k.opts.resolveContext);
}

const REFRESH_WHEN_WITHIN_MS = 60_000;
const REFRESH_AT_MOST_EVERY_MS = 30_000;

/**
 * Before a token gate: when a held token has expired or expires within a minute, ask
 * `refreshHeld` for the caller's tokens again (at most every 30 s, so a refused refresh
 * is not retried on every call). Tokens minted in this kernel that the fresh list lacks
 * (an anonymous caller's, never stored) are kept; a disconnected OAuth token is gone.
 */
export async function refreshExpiringHeld(k: KernelState): Promise<void> {
  const refresh = k.opts.refreshHeld;
  if (!refresh) return;
  const now = Date.now();
  if (!k.held.some((t) => t.expiresAt !== null && t.expiresAt.getTime() <= now + REFRESH_WHEN_WITHIN_MS)) return;
  if (now - k.heldRefreshedAt < REFRESH_AT_MOST_EVERY_MS) return;
  k.heldRefreshedAt = now;
  const fresh = await refresh().catch(() => null);
  if (!fresh) return;
  const ids = new Set(fresh.map((t) => t.id));
  k.held = [...fresh, ...k.held.filter((t) => !ids.has(t.id) && !t.issuer.startsWith('@oauth/'))];
}
