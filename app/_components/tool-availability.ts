import 'server-only';
// For the pages: what each tool of a skill needs before it runs here, in words. Gated
// tools get the planner's answer (which login or which tool unlocks them); tools whose
// handler this server does not run (an unusable MCP server definition, subprocesses —
// Python, bash, stdio MCP servers — while disabled) say so.
import { serverContext } from '@/lib/server';
import { createToolIndex, mcpServerFor, planFor, type HeldToken } from '@/lib/runtime';
import type { SkillManifest, ToolManifest } from '@/lib/skills';
import { describeParams, type SchemaField, buildExampleArgs } from '@/lib/forms';
import { providersFromEnv } from '@/lib/auth';

export type ToolUnlock = {
  issuer: string;
  claims: string[];
  /** `signedOut`: a token a tool issues to a signed-out visitor lasts one playground run, never across calls on a page */
  options: Array<{ kind: 'oauth' | 'tool'; label: string; provider?: string; tool?: string; signedOut?: boolean }>;
};

export type ToolAvailability = {
  name: string;
  description: string;
  handler: string;
  params: Record<string, unknown> | null;
  fields: SchemaField[];
  /** example arguments valid against `params` (example-args.ts) */
  example: Record<string, unknown>;
  /** null when this server can run the tool; else why not */
  cannotRun: string | null;
  /** what this viewer still needs to unlock it (empty: nothing) */
  unlocks: ToolUnlock[];
};

/** Why this server cannot run the tool (null: it can). Mirrors the handler dispatch of lib/runtime/manager.ts. */
export function cannotRunHere(manifest: SkillManifest, tool: ToolManifest): string | null {
  const kind = tool.handler.kind;
  if (kind === 'mcp') {
    let transport: string;
    try {
      transport = mcpServerFor(manifest, tool).server.transport;
    } catch (err) {
      return `wraps an MCP server tool whose server is not usable (${err instanceof Error ? err.message : String(err)})`;
    }
    if (transport !== 'stdio' || serverContext().config.allowSubprocess) return null;
    return 'wraps a local (stdio) MCP server, a subprocess, and this server has subprocesses disabled';
  }
  if ((kind === 'python' || kind === 'bash') && !serverContext().config.allowSubprocess) {
    return `runs ${kind === 'python' ? 'Python' : 'a shell script'} as a subprocess, and this server has subprocesses disabled`;
  }
  return null;
}

/** A provider as this server names it ("Test IdP", "GitHub"), else the planner's well-known name. */
function providerName(provider: string, fallback: string): string {
  try {
    return providersFromEnv().find((p) => p.id === provider)?.name ?? fallback;
  } catch {
    return fallback;
  }
}

export function toolAvailability(manifest: SkillManifest, scope: string, held: HeldToken[] = [], viewer: { signedIn: boolean } = { signedIn: true }): ToolAvailability[] {
  const registry = createToolIndex([{ manifest, scope, readFile: async () => '' }]);
  return registry.entries
    .filter((e) => e.tool.visibility !== 'hidden')
    .map((entry) => {
      const plan = planFor(registry, entry, held);
      return {
        name: entry.tool.name,
        description: entry.tool.description,
        handler: entry.tool.handler.kind,
        params: entry.tool.params,
        fields: describeParams(entry.tool.params),
        example: buildExampleArgs(entry.tool.params).args,
        cannotRun: cannotRunHere(manifest, entry.tool),
        unlocks: plan.unlocks.map((u) => ({
          issuer: u.issuer,
          claims: u.claims,
          options: u.options.map((o) =>
            o.kind === 'oauth'
              ? { kind: 'oauth' as const, label: providerName(o.provider, o.label.replace(/^log in with /, '')), provider: o.provider }
              : { kind: 'tool' as const, label: o.label, tool: o.ref.split('/').pop(), ...(viewer.signedIn ? {} : { signedOut: true }) },
          ),
        })),
      };
    });
}
