// POST /api/v1/publish/oidc/token: a CI job's OIDC token for a short-lived API token that
// can publish one skill. The token's issuer picks the skill's configured publishers; it
// is verified against that issuer's keys (aud, exp, iss), its claims must match one
// publisher's exactly, and the API token it buys lives minutes, publishes that skill only,
// and records the provenance every version it publishes carries.
import 'server-only';
import crypto from 'node:crypto';
import type { Db } from '../db';
import { AppError } from '../errors';
import { createApiToken, type ApiTokenScope } from '../auth';
import { TRUSTED_PUBLISH_SCOPE } from '../principal';
import { consumeRateLimitExact } from '../limits';
import { oidcSettings } from './oidc-settings';
import { claimedIssuer, mismatchedClaims, verifyCiToken } from './verify-ci-token';
import { provenanceFromClaims } from './provenance-from-claims';

export type ExchangeResult = { token: string; expiresAt: string; skill: string; repository: string };

export async function exchangeCiToken(db: Db, input: { token: string; scope: string; name: string }, settings = oidcSettings()): Promise<ExchangeResult> {
  const label = `@${input.scope}/${input.name}`;
  const issuer = claimedIssuer(input.token);
  const skill = await db.skill.findUnique({
    where: { scopeName_name: { scopeName: input.scope, name: input.name } },
    select: { id: true, visibility: true, trustedPublishers: { select: { id: true, issuer: true, claims: true, createdById: true } } },
  });
  // no skill and no publisher for this issuer answer alike: nothing about private skills leaks
  const candidates = skill?.trustedPublishers.filter((p) => p.issuer === issuer) ?? [];
  const noPublisher = () => new AppError('publish/oidc-no-publisher', `${label} has no trusted publisher for the issuer ${issuer.slice(0, 100)}.`);
  if (!skill || candidates.length === 0) throw noPublisher();
  let claims: Awaited<ReturnType<typeof verifyCiToken>>;
  let match: (typeof candidates)[number] | undefined;
  try {
    claims = await verifyCiToken(input.token, issuer, settings);
    const verified = claims;
    match = candidates.find((p) => mismatchedClaims(verified, p.claims as Record<string, string>).length === 0);
    if (!match) {
      const differing = [...new Set(candidates.flatMap((p) => mismatchedClaims(verified, p.claims as Record<string, string>)))];
      throw new AppError(
        'publish/oidc-no-publisher',
        `The token's ${differing.map((c) => `"${c}"`).join(', ')} claim${differing.length > 1 ? 's do' : ' does'} not match a trusted publisher of ${label}.`,
      );
    }
  } catch (err) {
    // a private skill: whatever went wrong reads as "no such skill" (a stranger's own CI
    // token, or a forged one, must not tell that it exists or which claims it checks)
    if (skill.visibility === 'private') throw noPublisher();
    throw err;
  }
  // one CI token buys one publish token: a token seen in a log cannot be exchanged again
  const exp = typeof claims.exp === 'number' ? claims.exp * 1000 : Date.now();
  const once = await consumeRateLimitExact(db, `oidc-token:${crypto.createHash('sha256').update(input.token).digest('base64url')}`, {
    limit: 1,
    windowMs: Math.min(Math.max(exp - Date.now(), 0) + 60_000, 24 * 3_600_000),
  });
  if (!once.allowed) throw new AppError('publish/oidc-invalid-token', 'This CI token was exchanged already; request a new one.');
  if (!match.createdById) throw new AppError('publish/oidc-no-publisher', `The trusted publisher of ${label} belongs to a deleted account; configure it again.`);
  const provenance = provenanceFromClaims(issuer, claims, settings);
  const expiresAt = new Date(Date.now() + settings.tokenMinutes * 60_000);
  const minted = await createApiToken(db, {
    userId: match.createdById,
    name: `trusted publishing ${label} (${provenance.repository || issuer}) ${crypto.randomBytes(3).toString('hex')}`,
    scopes: [TRUSTED_PUBLISH_SCOPE as ApiTokenScope],
    expiresAt,
  });
  await db.trustedPublishGrant.create({ data: { tokenId: minted.id, publisherId: match.id, skillId: skill.id, provenance: provenance as object, expiresAt } });
  return { token: minted.token, expiresAt: expiresAt.toISOString(), skill: label, repository: provenance.repository };
}
