// The planner: for a tool the caller cannot use, which OAuth login or which tool's
// outputTokens would unlock it. A tool can only mint issuers of its own scope, so only
// those tools are offered; each option says whether the caller can use it right now.

import { checkTokenGate, issuerScope, oauthLabel } from './tokens';
import type { ToolIndex, ToolEntry } from './tool-index';
import type { HeldToken, Plan, PlanStep } from './types';

export function planFor(registry: ToolIndex, target: ToolEntry, held: HeldToken[], now = new Date()): Plan {
  const gate = checkTokenGate(target.tool, held, now, target.skill.scope);
  if (gate.ok) return { ref: target.ref, usable: true, missing: [], unlocks: [] };
  const byIssuer = new Map<string, string[]>();
  for (const m of gate.missing) byIssuer.set(m.issuer, [...(byIssuer.get(m.issuer) ?? []), m.claim]);
  const unlocks: Plan['unlocks'] = [];
  for (const [issuer, claims] of byIssuer) {
    const options: PlanStep[] = [];
    if (issuer.startsWith('@oauth/')) {
      const provider = issuer.slice('@oauth/'.length);
      options.push({ kind: 'oauth', provider, issuer, claims, label: oauthLabel(provider) });
    } else {
      for (const e of registry.entries) {
        if (e === target || e.tool.visibility === 'hidden') continue;
        const declared = e.tool.outputTokens?.[issuer]?.required ?? [];
        if (!claims.every((c) => declared.includes(c))) continue;
        // Minting is refused outside the tool's own scope, so such a tool could never unlock this.
        if (!e.skill.scope || issuerScope(issuer) !== e.skill.scope) continue;
        options.push({
          kind: 'tool',
          ref: e.ref,
          issuer,
          claims,
          usable: checkTokenGate(e.tool, held, now, e.skill.scope).ok,
          label: `run ${e.tool.name} (it issues ${issuer} ${claims.join(', ')})`,
        });
      }
    }
    unlocks.push({ issuer, claims, options });
  }
  return { ref: target.ref, usable: false, missing: gate.missing, unlocks };
}
