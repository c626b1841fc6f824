// Token gating (SPEC section 3): a tool with inputTokens is invisible and uninvokable for a
// caller lacking any required claim; expired counts as lacking unless the claim is in
// allowExpired. A tool receives only the tokens it declares; it mints only under its
// declared outputTokens, only for issuers of its own scope, and never `@oauth/*`.

import type { ToolManifest } from '../skills';
import type { GrantedToken, HeldToken, PlanMissing } from './types';
import { RuntimeError } from './errors';

export type TokenGateResult = { ok: true; granted: GrantedToken[] } | { ok: false; missing: PlanMissing[] };

export function isExpired(token: HeldToken, now: Date): boolean {
  return token.expiresAt !== null && token.expiresAt.getTime() <= now.getTime();
}

function grant(token: HeldToken, now: Date): GrantedToken {
  return {
    id: token.id,
    issuer: token.issuer,
    claims: [...token.claims],
    expiresAt: token.expiresAt ? token.expiresAt.toISOString() : null,
    expired: isExpired(token, now),
    secret: token.secret,
  };
}

/**
 * `skillScope`: the scope of the tool's skill. A token held only for one scope (a team's
 * connection, see HeldToken) counts for that scope's tools only; without a scope, never.
 */
export function checkTokenGate(tool: ToolManifest, held: HeldToken[], now = new Date(), skillScope?: string | null): TokenGateResult {
  held = held.filter((t) => t.onlyForScope === undefined || (!!skillScope && t.onlyForScope === skillScope));
  const missing: PlanMissing[] = [];
  const chosen = new Map<string, HeldToken>();
  for (const [issuer, rule] of Object.entries(tool.inputTokens ?? {})) {
    const ofIssuer = held.filter((t) => t.issuer === issuer);
    for (const claim of rule.required ?? []) {
      const live = ofIssuer.find((t) => t.claims.includes(claim) && !isExpired(t, now));
      if (live) {
        chosen.set(live.id, live);
        continue;
      }
      const expired = ofIssuer.find((t) => t.claims.includes(claim));
      if (expired && (rule.allowExpired ?? []).includes(claim)) {
        chosen.set(expired.id, expired);
        continue;
      }
      missing.push({ issuer, claim, reason: expired ? 'expired' : 'missing' });
    }
    // A declared issuer with no required claims still receives its live token when the caller has one.
    if ((rule.required ?? []).length === 0) {
      const any = ofIssuer.find((t) => !isExpired(t, now));
      if (any) chosen.set(any.id, any);
    }
  }
  if (missing.length) return { ok: false, missing };
  return { ok: true, granted: [...chosen.values()].map((t) => grant(t, now)) };
}

export function tokenGateError(toolRef: string, missing: PlanMissing[]): RuntimeError {
  const onlyExpired = missing.every((m) => m.reason === 'expired');
  const list = missing.map((m) => `${m.issuer} ${m.claim}${m.reason === 'expired' ? ' (expired)' : ''}`).join(', ');
  return new RuntimeError(onlyExpired ? 'token/expired' : 'token/missing', `tool '${toolRef}' requires tokens the caller lacks: ${list}`, {
    missing,
  });
}

/** The scope of an issuer `@scope/name` (null when the issuer is not scoped). */
export function issuerScope(issuer: string): string | null {
  const m = /^@([^/]+)\/.+$/.exec(issuer);
  return m ? m[1] : null;
}

/** Throws unless `tool` (of a skill in `skillScope`) may mint `claims` under `issuer`. */
export function assertMayMint(tool: ToolManifest, skillScope: string | null | undefined, issuer: string, claims: string[]): void {
  if (issuer === '@oauth' || issuer.startsWith('@oauth/')) {
    throw new RuntimeError('token/reserved-issuer', `issuer '${issuer}' is minted only by the platform's OAuth login, never by a tool`);
  }
  const declared = tool.outputTokens?.[issuer];
  if (!declared) {
    throw new RuntimeError('token/not-declared', `tool '${tool.name}' does not declare outputTokens for '${issuer}'`);
  }
  const extra = claims.filter((c) => !(declared.required ?? []).includes(c));
  if (extra.length) {
    throw new RuntimeError('token/not-declared', `tool '${tool.name}' declares outputTokens '${issuer}' without claims: ${extra.join(', ')}`);
  }
  const scope = issuerScope(issuer);
  if (!skillScope || scope !== skillScope) {
    throw new RuntimeError(
      'token/foreign-issuer',
      `tool '${tool.name}' may mint only issuers of its own scope${skillScope ? ` (@${skillScope}/...)` : ' (the skill has no scope)'}, not '${issuer}'`,
    );
  }
}

const OAUTH_LABELS: Record<string, string> = { github: 'GitHub', google: 'Google', gitlab: 'GitLab', microsoft: 'Microsoft', oidc: 'OpenID Connect' };

export function oauthLabel(provider: string): string {
  return `log in with ${OAUTH_LABELS[provider] ?? provider.charAt(0).toUpperCase() + provider.slice(1)}`;
}
