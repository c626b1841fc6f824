// The trusted publishers of a skill, managed by those who may publish it: an OIDC issuer
// and the claims a CI token must carry, each exactly (GitHub Actions: repository and
// workflow_ref; GitLab: project_path and ci_config_ref_uri).
import 'server-only';
import { z } from 'zod';
import type { Db } from '../db';
import { AppError } from '../errors';
import { assertScopeOwner } from '../registry';
import { checkIssuerUrl } from './issuer-keys';
import { oidcSettings, type OidcSettings } from './oidc-settings';

export const MAX_PUBLISHERS = 10;

export const ZTrustedPublisherInput = z.object({
  issuer: z.string().trim().min(1).max(300),
  claims: z
    .record(z.string().regex(/^[a-z][a-z0-9_]{0,39}$/, 'claim names are lowercase letters, digits and _'), z.string().trim().min(1).max(300))
    .refine((c) => Object.keys(c).length >= 1 && Object.keys(c).length <= 8, 'give 1 to 8 claims that must match'),
});
export type TTrustedPublisherInput = z.infer<typeof ZTrustedPublisherInput>;

export type TrustedPublisherView = { id: string; issuer: string; claims: Record<string, string>; createdAt: string };

/** Claims without which a publisher would trust every repository of its issuer. */
function requiredClaimFor(issuer: string, settings: OidcSettings): string | null {
  if (settings.githubIssuers.includes(issuer)) return 'repository';
  if (issuer === 'https://gitlab.com') return 'project_path';
  return null;
}

async function skillFor(db: Db, scope: string, name: string, userId: string) {
  await assertScopeOwner(db, scope, userId, name);
  const skill = await db.skill.findUnique({ where: { scopeName_name: { scopeName: scope, name } }, select: { id: true } });
  if (!skill) throw new AppError('skill/not-found', `@${scope}/${name} was not found.`);
  return skill;
}

export async function listTrustedPublishers(db: Db, ref: { scope: string; name: string }, userId: string): Promise<TrustedPublisherView[]> {
  const skill = await skillFor(db, ref.scope, ref.name, userId);
  const rows = await db.trustedPublisher.findMany({ where: { skillId: skill.id }, orderBy: { createdAt: 'asc' } });
  return rows.map((r) => ({ id: r.id, issuer: r.issuer, claims: r.claims as Record<string, string>, createdAt: r.createdAt.toISOString() }));
}

export async function addTrustedPublisher(
  db: Db,
  ref: { scope: string; name: string },
  userId: string,
  input: TTrustedPublisherInput,
  settings = oidcSettings(),
): Promise<TrustedPublisherView> {
  const parsed = ZTrustedPublisherInput.parse(input);
  const issuer = parsed.issuer.replace(/\/$/, '');
  checkIssuerUrl(issuer, settings);
  const needed = requiredClaimFor(issuer, settings);
  if (needed && !parsed.claims[needed])
    throw new AppError('input/invalid', `A publisher of ${issuer} must name the "${needed}" claim: without it any ${needed} of that CI could publish.`);
  const skill = await skillFor(db, ref.scope, ref.name, userId);
  if ((await db.trustedPublisher.count({ where: { skillId: skill.id } })) >= MAX_PUBLISHERS) {
    throw new AppError('input/invalid', `A skill has at most ${MAX_PUBLISHERS} trusted publishers.`);
  }
  const row = await db.trustedPublisher.create({ data: { skillId: skill.id, issuer, claims: parsed.claims, createdById: userId } });
  return { id: row.id, issuer: row.issuer, claims: parsed.claims, createdAt: row.createdAt.toISOString() };
}

/** Removes a publisher; the short-lived tokens it gave out stop working with it (their grant cascades, the token is revoked). */
export async function removeTrustedPublisher(db: Db, ref: { scope: string; name: string }, userId: string, id: string): Promise<void> {
  const skill = await skillFor(db, ref.scope, ref.name, userId);
  const row = await db.trustedPublisher.findFirst({ where: { id, skillId: skill.id }, select: { id: true, grants: { select: { tokenId: true } } } });
  if (!row) throw new AppError('input/invalid', 'No such trusted publisher on this skill.');
  await db.$transaction([
    db.apiToken.updateMany({ where: { id: { in: row.grants.map((g) => g.tokenId) } }, data: { revokedAt: new Date() } }),
    db.trustedPublisher.delete({ where: { id: row.id } }),
  ]);
}
