// What a skill version may do, derived from its canonical manifest alone: the one summary
// the skill page, the API, the signed statement, MCP annotations and the CLI's lock and
// `update` all use. Pure: the same manifest always gives the same summary.
// Imports only lib/skills: the standalone CLI loads this on every download, without the
// kernel (whose compiler, esbuild, it may not have).
import { allowedHostsOf, splitAllowedTools, type SkillManifest } from '../skills';

export type PermissionSummary = {
  /** capability names its tools declare (storage, net, environment, tool, ai, event, object, token) */
  capabilities: string[];
  /** hosts the net capability may reach (from the skill's metadata) */
  network: string[];
  /** token issuers its tools take (input tokens), account connections excluded */
  tokensRead: string[];
  /** token issuers its tools mint (output tokens) */
  tokensMinted: string[];
  /** account connections its tools use: `@oauth/<provider>` */
  connections: string[];
  /** whether a tool reads the workspace's secrets (the environment capability) */
  secrets: boolean;
  /** handler kinds that run as a subprocess on the server (python, bash) */
  subprocess: string[];
  /** other tools it may call: its allowed-tools entries, or `own scope` when it declares `tool` without them */
  tools: string[];
  /** whether a tool keeps data between calls (the storage capability) */
  storage: boolean;
};

const sorted = (items: Iterable<string>) => [...new Set(items)].sort();

/** Rye's dotted names (`net.http`) count as their first part, as the kernel grants them. */
const capabilityName = (c: string) => c.split('.')[0].toLowerCase();

export function summarizePermissions(manifest: Pick<SkillManifest, 'tools' | 'metadata' | 'allowedTools'> | null | undefined): PermissionSummary {
  const tools = manifest?.tools ?? [];
  const capabilities = sorted(tools.flatMap((t) => t.capabilities.map(capabilityName)));
  const read = tools.flatMap((t) => Object.keys(t.inputTokens));
  const allowed = manifest?.allowedTools;
  // an entry with `$deny` among its specifiers refuses rather than allows (lib/runtime/allowed-tools.ts)
  const denies = (e: string) => /\(([^)]*,)?\s*\$deny\s*(,[^)]*)?\)$/.test(e);
  const toolCalls = allowed != null ? splitAllowedTools(allowed).filter((e) => !denies(e)) : capabilities.includes('tool') ? ['own scope'] : [];
  return {
    capabilities,
    network: sorted(allowedHostsOf(manifest?.metadata)),
    tokensRead: sorted(read.filter((i) => !i.startsWith('@oauth/'))),
    tokensMinted: sorted(tools.flatMap((t) => Object.keys(t.outputTokens))),
    connections: sorted(read.filter((i) => i.startsWith('@oauth/'))),
    secrets: capabilities.includes('environment'),
    subprocess: sorted(tools.map((t) => t.handler.kind).filter((k) => k === 'python' || k === 'bash')),
    tools: sorted(toolCalls),
    storage: capabilities.includes('storage'),
  };
}

/**
 * The summary as `skillyard.lock` files written before it existed recorded it
 * (capabilities, network, tokens, subprocess), read conservatively: a legacy token counts
 * as both read and minted, legacy subprocess as both kinds, and what it never recorded
 * (allowed-tools) is taken from the new version so that an upgrade alone never reads as a
 * widening.
 */
export function summaryFromLegacy(legacy: { capabilities: string[]; network: string[]; tokens: string[]; subprocess: boolean }, next: PermissionSummary): PermissionSummary {
  const capabilities = sorted(legacy.capabilities.map(capabilityName));
  return {
    capabilities,
    network: sorted(legacy.network),
    tokensRead: sorted(legacy.tokens.filter((i) => !i.startsWith('@oauth/'))),
    tokensMinted: sorted(legacy.tokens.filter((i) => !i.startsWith('@oauth/'))),
    connections: sorted(legacy.tokens.filter((i) => i.startsWith('@oauth/'))),
    secrets: capabilities.includes('environment'),
    subprocess: legacy.subprocess ? ['bash', 'python'] : [],
    tools: next.tools,
    storage: capabilities.includes('storage'),
  };
}

/** Whether `x` has the shape of a summary (a lock entry, a statement, an API answer). */
export function isPermissionSummary(x: unknown): x is PermissionSummary {
  const p = x as Record<string, unknown> | null;
  const list = (v: unknown) => Array.isArray(v) && v.every((s) => typeof s === 'string');
  return (
    !!p &&
    typeof p === 'object' &&
    ['capabilities', 'network', 'tokensRead', 'tokensMinted', 'connections', 'subprocess', 'tools'].every((k) => list(p[k])) &&
    typeof p.secrets === 'boolean' &&
    typeof p.storage === 'boolean'
  );
}
