// Capability provider interfaces. The kernel grants a capability to a tool only when its
// manifest declares it; these providers do the actual work. In-memory implementations
// (memory-*.ts) serve the CLI and tests; the server supplies Postgres-backed ones.

import type { HeldToken } from '../types';

/** The capability names a manifest may declare (rye dotted names such as `net.http` map to their first part). */
export const CAPABILITY_NAMES = ['storage', 'token', 'environment', 'event', 'tool', 'ai', 'object', 'net'] as const;
export type CapabilityName = (typeof CAPABILITY_NAMES)[number];

/** Who is asking and from which skill; every provider call carries it so data stays scoped. */
export type CapabilityScope = {
  callerId: string;
  callerKind: 'user' | 'team' | 'anonymous';
  skill: string;
  tool: string;
  /** what the token signer's key is derived from beside `skill` (LoadedSkill.identity) */
  skillIdentity?: string;
};

/** Per-skill KV: keys live under (callerId, skill, namespace); nothing is shared across callers or skills. */
export interface StorageProvider {
  get(scope: CapabilityScope, namespace: string, key: string): Promise<unknown | null>;
  put(scope: CapabilityScope, namespace: string, key: string, value: unknown): Promise<void>;
  delete(scope: CapabilityScope, namespace: string, key: string): Promise<boolean>;
  list(scope: CapabilityScope, namespace: string, prefix: string): Promise<string[]>;
}

/** Signs and verifies opaque tokens for a skill (keys are per skill, so one skill cannot forge another's). */
export interface TokenSigner {
  sign(scope: CapabilityScope, payload: unknown, opts: { expiresInSeconds?: number }): Promise<string>;
  verify(scope: CapabilityScope, token: string): Promise<{ valid: true; payload: unknown } | { valid: false; reason: string }>;
}

export type MintRequest = { issuer: string; claims: string[]; expiresAt: Date | null; holderId: string };

/** Stores held tokens. The kernel decides whether a mint is allowed; the vault only records it. */
export interface TokenVault {
  mint(req: MintRequest): Promise<HeldToken>;
}

/** Workspace secrets visible to the caller (user or team). */
export interface EnvironmentProvider {
  get(scope: CapabilityScope, name: string): Promise<string | null>;
}

export type EventRecord = { topic: string; data: unknown; publishedBy: { skill: string; tool: string }; at: Date };
export type Subscription = { id: string; topic: string; ref: string; skill: string; callerId: string };

/** Publish/subscribe, scoped to the caller. A subscription names a tool ref invoked with `{topic, data}`. */
export interface EventBus {
  publish(scope: CapabilityScope, topic: string, data: unknown): Promise<Subscription[]>;
  subscribe(scope: CapabilityScope, topic: string, ref: string): Promise<Subscription>;
  unsubscribe(scope: CapabilityScope, id: string): Promise<boolean>;
}

export type AiMessage = { role: 'system' | 'user' | 'assistant'; content: string };
export type AiCompletionRequest = { messages: AiMessage[]; maxTokens?: number; temperature?: number; model?: string };
export type AiCompletion = { text: string; model?: string; usage?: { inputTokens?: number; outputTokens?: number } };

/** Completion through the configured model (the lead's provider layer). */
export type AiProvider = (scope: CapabilityScope, req: AiCompletionRequest) => Promise<AiCompletion>;

/** A structured visual component a tool emits into the trace. */
export type ObjectComponent = { id: string; type: string; props: Record<string, unknown>; skill: string; tool: string };
export type ObjectSink = (component: ObjectComponent) => void | Promise<void>;

export type NetOptions = {
  /** largest response body accepted (bytes); default 1 MiB */
  maxBytes?: number;
  /** per-request deadline; default 10 s */
  timeoutMs?: number;
  /** most redirects followed (each target is checked against the allow list); default 5 */
  maxRedirects?: number;
  /** address ranges (CIDR) reachable although private or loopback (the operator's SKILLYARD_NET_ALLOW) */
  allowRanges?: string[];
  /** host name resolution (tests pass their own); default dns.lookup with all answers */
  resolve?: (hostname: string) => Promise<Array<{ address: string; family: number }>>;
  /** the MCP handler's transport fetch (the server's address is checked first); default globalThis.fetch */
  fetch?: typeof fetch;
};

export type CapabilityProviders = {
  storage?: StorageProvider;
  signer?: TokenSigner;
  vault?: TokenVault;
  environment?: EnvironmentProvider;
  events?: EventBus;
  ai?: AiProvider;
  onObject?: ObjectSink;
  net?: NetOptions;
};
