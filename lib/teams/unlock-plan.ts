// The planner as people see it (issue 10): for the tools of some skills and one viewer,
// which connections would unlock which tools ("Connect GitHub (repo) to unlock 3 tools"),
// and which tools the viewer has already unlocked.
import 'server-only';
import type { Db } from '../db';
import type { ToolManifest } from '../skills';
import { checkTokenGate, type HeldToken } from '../runtime';
import type { ProviderSpec } from '../auth';
import { teamHeldTokens } from './team-held-tokens';

export type UnlockGroup = {
  provider: string;
  name: string;
  /** whether this server offers that provider at all */
  configured: boolean;
  /** the scopes to ask for (incremental consent): what the locked tools need, never `account` */
  scopes: string[];
  tools: string[];
  /** the viewer holds the connection, but it expired or lacks a scope */
  reconnect: boolean;
  /** the held connection expired (else it lacks a scope) */
  expired: boolean;
};

export type UnlockPlan = {
  locked: UnlockGroup[];
  unlocked: string[];
  /** gated by a tool-minted issuer: unlocked by running the tool that issues it */
  lockedByTool: Array<{ tool: string; issuer: string; claims: string[] }>;
};

// how the providers Skillyard knows spell themselves, for one this server does not configure
const WELL_KNOWN: Record<string, string> = { github: 'GitHub', gitlab: 'GitLab', google: 'Google' };

/** `scope`: the skill's scope, so a team's connection counts for the team's own skills (lib/teams). */
export function unlockPlan(tools: ToolManifest[], held: HeldToken[], specs: ProviderSpec[], now = new Date(), scope?: string | null): UnlockPlan {
  const groups = new Map<string, UnlockGroup>();
  const plan: UnlockPlan = { locked: [], unlocked: [], lockedByTool: [] };
  for (const tool of tools) {
    if (tool.visibility === 'hidden' || Object.keys(tool.inputTokens ?? {}).length === 0) continue;
    const gate = checkTokenGate(tool, held, now, scope);
    if (gate.ok) {
      plan.unlocked.push(tool.name);
      continue;
    }
    for (const m of gate.missing) {
      if (!m.issuer.startsWith('@oauth/')) {
        const entry = plan.lockedByTool.find((e) => e.tool === tool.name && e.issuer === m.issuer);
        if (entry) entry.claims.push(m.claim);
        else plan.lockedByTool.push({ tool: tool.name, issuer: m.issuer, claims: [m.claim] });
        continue;
      }
      const provider = m.issuer.slice('@oauth/'.length);
      const spec = specs.find((s) => s.id === provider);
      let group = groups.get(provider);
      if (!group) {
        group = {
          provider,
          name: spec?.name ?? WELL_KNOWN[provider] ?? provider.charAt(0).toUpperCase() + provider.slice(1),
          configured: !!spec,
          scopes: [],
          tools: [],
          reconnect: held.some((h) => h.issuer === m.issuer),
          expired: false,
        };
        groups.set(provider, group);
      }
      if (m.reason === 'expired') group.expired = true;
      if (m.claim !== 'account' && !group.scopes.includes(m.claim)) group.scopes.push(m.claim);
      if (!group.tools.includes(tool.name)) group.tools.push(tool.name);
    }
  }
  plan.locked = [...groups.values()];
  return plan;
}

export function unlockLabel(group: UnlockGroup): string {
  const scopes = group.scopes.join(', ');
  const n = group.tools.length;
  const tools = `${n} tool${n === 1 ? '' : 's'}`;
  // a connection the viewer has (a sign-in, say) that lacks a scope or expired: say what it lacks
  if (group.reconnect && (group.expired || !scopes)) return `Your ${group.name} connection has expired: connect ${group.name} again to unlock ${tools}`;
  if (group.reconnect) return `Your ${group.name} connection lacks ${scopes}: connect ${group.name} again with ${scopes} to unlock ${tools}`;
  return `Connect ${group.name}${scopes ? ` with ${scopes}` : ''} to unlock ${tools}`;
}

/** The viewer's held tokens without their secrets (the planner needs only issuers, claims and expiry). */
export async function heldTokenClaims(db: Db, userId: string | null): Promise<HeldToken[]> {
  if (!userId) return [];
  const [rows, team] = await Promise.all([
    db.heldToken.findMany({ where: { userId }, select: { id: true, issuer: true, claims: true, expiresAt: true, refreshSecret: true } }),
    // the connections of the user's teams, each for that team's own skills only
    teamHeldTokens(db, userId, { secrets: false }),
  ]);
  // a refreshable connection counts as live: it is refreshed before use
  return [...rows.map((r) => ({ id: r.id, issuer: r.issuer, claims: r.claims, expiresAt: r.refreshSecret ? null : r.expiresAt, secret: '' })), ...team];
}

/** The tools a viewer may see: not hidden, and either ungated or passing the token gate. */
export function usableTools(tools: ToolManifest[], held: HeldToken[], now = new Date()): ToolManifest[] {
  return tools.filter((t) => t.visibility !== 'hidden' && (Object.keys(t.inputTokens ?? {}).length === 0 || checkTokenGate(t, held, now).ok));
}
