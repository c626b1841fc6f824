// Which capabilities a tool is granted (exactly those it declares) and the host side of
// each capability's methods. The guest never sees a method it was not granted; the host
// checks again here so a forged call is refused with the same clear error.

import { randomUUID } from 'node:crypto';
import type { ToolManifest } from '../../skills';
import { RuntimeError } from '../errors';
import { CAPABILITY_METHODS } from '../guest';
import { assertMayMint } from '../tokens';
import type { HeldToken, LoadedSkill } from '../types';
import { allowedHostsOf, netFetch, type NetRequest } from './net';
import { CAPABILITY_NAMES, type AiMessage, type CapabilityName, type CapabilityProviders, type CapabilityScope } from './types';

/** Declared names map to capabilities by their first dotted part (rye `net.http` → `net`); unknown ones grant nothing. */
export function grantedCapabilities(tool: ToolManifest): CapabilityName[] {
  const out = new Set<CapabilityName>();
  for (const c of tool.capabilities ?? []) {
    const base = c.toLowerCase().split('.')[0];
    if ((CAPABILITY_NAMES as readonly string[]).includes(base)) out.add(base as CapabilityName);
  }
  return [...out];
}

export function hostMethodsFor(granted: CapabilityName[]): string[] {
  return granted.flatMap((c) => CAPABILITY_METHODS[c]);
}

const METHOD_CAPABILITY = new Map<string, CapabilityName>(Object.entries(CAPABILITY_METHODS).flatMap(([cap, methods]) => methods.map((m) => [m, cap as CapabilityName] as const)));

export function capabilityOfMethod(method: string): CapabilityName | undefined {
  return METHOD_CAPABILITY.get(method);
}

export function notDeclared(tool: ToolManifest, cap: string): RuntimeError {
  const declared = tool.capabilities?.length ? tool.capabilities.join(', ') : 'none';
  return new RuntimeError('capability/not-declared', `capability "${cap}" is not declared by tool ${tool.name} (declared: ${declared}); add "${cap}" to its capabilities`);
}

export const MAX_STORED_VALUE_BYTES = 1024 * 1024;

export type CapabilityCallContext = {
  skill: LoadedSkill;
  tool: ToolManifest;
  scope: CapabilityScope;
  granted: CapabilityName[];
  providers: CapabilityProviders;
  /** runs a tool ref through the full pipeline, as a call made by this tool */
  invoke(ref: string, args: unknown): Promise<unknown>;
  /** delivers an event to a subscriber's tool, as a call made by the subscribing skill */
  deliver(subscriberSkill: string, ref: string, args: unknown): Promise<unknown>;
  /** records a minted token as held by the caller */
  addHeldToken(token: HeldToken): void;
};

function need<T>(value: T | undefined, cap: string): T {
  if (value === undefined) throw new RuntimeError('capability/unavailable', `capability "${cap}" has no provider configured on this server`);
  return value;
}

function str(v: unknown, what: string): string {
  if (typeof v !== 'string' || v.length === 0 || v.length > 1024) throw new RuntimeError('capability/invalid-args', `${what} must be a non-empty string`);
  return v;
}

export async function callCapability(c: CapabilityCallContext, method: string, args: unknown[]): Promise<unknown> {
  const cap = capabilityOfMethod(method);
  if (!cap) throw new RuntimeError('capability/denied', `unknown host method '${method}'`);
  if (!c.granted.includes(cap)) throw notDeclared(c.tool, cap);
  const p = c.providers;
  switch (method) {
    case 'storage_get':
      return need(p.storage, 'storage').get(c.scope, str(args[0], 'namespace'), str(args[1], 'key'));
    case 'storage_put': {
      const size = Buffer.byteLength(JSON.stringify(args[2] ?? null));
      if (size > MAX_STORED_VALUE_BYTES) throw new RuntimeError('storage/too-large', `a stored value may be at most ${MAX_STORED_VALUE_BYTES} bytes (got ${size})`);
      await need(p.storage, 'storage').put(c.scope, str(args[0], 'namespace'), str(args[1], 'key'), args[2] ?? null);
      return true;
    }
    case 'storage_delete':
      return need(p.storage, 'storage').delete(c.scope, str(args[0], 'namespace'), str(args[1], 'key'));
    case 'storage_list':
      return need(p.storage, 'storage').list(c.scope, str(args[0], 'namespace'), typeof args[1] === 'string' ? args[1] : '');
    case 'token_sign': {
      const opts = (args[1] ?? {}) as { expiresInSeconds?: unknown };
      const exp = typeof opts.expiresInSeconds === 'number' && opts.expiresInSeconds > 0 ? opts.expiresInSeconds : undefined;
      return need(p.signer, 'token').sign(c.scope, args[0] ?? null, { expiresInSeconds: exp });
    }
    case 'token_verify':
      return need(p.signer, 'token').verify(c.scope, str(args[0], 'token'));
    case 'token_mint': {
      const req = (args[0] ?? {}) as { issuer?: unknown; claims?: unknown; expiresAt?: unknown };
      const issuer = str(req.issuer, 'issuer');
      const claims = Array.isArray(req.claims) ? req.claims.filter((x): x is string => typeof x === 'string') : [];
      if (claims.length === 0) throw new RuntimeError('capability/invalid-args', 'mint needs at least one claim');
      assertMayMint(c.tool, c.skill.scope, issuer, claims);
      const expiresAt = req.expiresAt === undefined || req.expiresAt === null ? null : new Date(req.expiresAt as string | number);
      if (expiresAt && Number.isNaN(expiresAt.getTime())) throw new RuntimeError('capability/invalid-args', 'expiresAt must be a date');
      const token = await need(p.vault, 'token').mint({ issuer, claims, expiresAt, holderId: c.scope.callerId });
      c.addHeldToken(token);
      return { id: token.id, issuer: token.issuer, claims: token.claims, expiresAt: token.expiresAt?.toISOString() ?? null };
    }
    case 'environment_get':
      return need(p.environment, 'environment').get(c.scope, str(args[0], 'name'));
    case 'event_publish': {
      const topic = str(args[0], 'topic');
      const subs = await need(p.events, 'event').publish(c.scope, topic, args[1] ?? null);
      let delivered = 0;
      const errors: Array<{ ref: string; code: string; message: string }> = [];
      for (const sub of subs) {
        try {
          await c.deliver(sub.skill, sub.ref, { topic, data: args[1] ?? null });
          delivered++;
        } catch (err) {
          const e = err as { code?: string; message?: string };
          errors.push({ ref: sub.ref, code: e.code ?? 'internal', message: e.message ?? String(err) });
        }
      }
      return { delivered, errors };
    }
    case 'event_subscribe': {
      const sub = await need(p.events, 'event').subscribe(c.scope, str(args[0], 'topic'), str(args[1], 'ref'));
      return { id: sub.id, topic: sub.topic, ref: sub.ref };
    }
    case 'event_unsubscribe':
      return need(p.events, 'event').unsubscribe(c.scope, str(args[0], 'subscription id'));
    case 'tool_invoke':
      return c.invoke(str(args[0], 'ref'), args[1] ?? undefined);
    case 'ai_complete': {
      const req = (args[0] ?? {}) as { prompt?: unknown; system?: unknown; messages?: unknown; maxTokens?: unknown; temperature?: unknown; model?: unknown };
      const messages: AiMessage[] = [];
      if (typeof req.system === 'string') messages.push({ role: 'system', content: req.system });
      if (Array.isArray(req.messages)) {
        for (const m of req.messages as Array<{ role?: unknown; content?: unknown }>) {
          if ((m.role === 'user' || m.role === 'assistant' || m.role === 'system') && typeof m.content === 'string') {
            messages.push({ role: m.role, content: m.content });
          }
        }
      }
      if (typeof req.prompt === 'string') messages.push({ role: 'user', content: req.prompt });
      if (!messages.some((m) => m.role === 'user')) throw new RuntimeError('capability/invalid-args', 'ai.complete needs a prompt or user messages');
      return need(p.ai, 'ai')(c.scope, {
        messages,
        maxTokens: typeof req.maxTokens === 'number' ? req.maxTokens : undefined,
        temperature: typeof req.temperature === 'number' ? req.temperature : undefined,
        model: typeof req.model === 'string' ? req.model : undefined,
      });
    }
    case 'object_create': {
      const spec = (args[0] ?? {}) as { type?: unknown; props?: unknown };
      const type = str(spec.type, 'object type');
      const props = spec.props && typeof spec.props === 'object' && !Array.isArray(spec.props) ? (spec.props as Record<string, unknown>) : {};
      const id = randomUUID();
      await need(p.onObject, 'object')({ id, type, props, skill: c.skill.manifest.name, tool: c.tool.name });
      return { id };
    }
    case 'net_fetch':
      return netFetch(str(args[0], 'url'), (args[1] ?? {}) as NetRequest, allowedHostsOf(c.skill.manifest.metadata), p.net);
    default:
      throw new RuntimeError('capability/denied', `unknown host method '${method}'`);
  }
}
