// The signed statement of one version (docs/trust.md): the newest one whose key is not
// revoked, or a new one signed now by the active key. statementInputFor gathers what the
// payload binds; it is the one place that adds to it (issue 30: evidence, provenance).
import 'server-only';
import type { Db } from '../db';
import { AppError } from '../errors';
import type { SkillManifest } from '../skills';
import { buildStatementPayload, readStatementPayload, signStatement, type StatementInput, type StatementPayload } from '../trust';
import { activeSigningKey } from './signing-keys';
import { findVisibleSkill } from './find-visible-skill';
import { resolveVersion } from './resolve-version';
import type { Viewer } from './get-skill';
import { statementEvidence, statementProvenance, type Evidence } from '../evidence';

export type VersionStatementOut = { version: string; keyId: string; jws: string; payload: StatementPayload };

/** What the statement of `versionId` binds, read from the database. */
export async function statementInputFor(db: Db, versionId: string): Promise<StatementInput> {
  const v = await db.skillVersion.findUnique({
    where: { id: versionId },
    select: {
      version: true,
      integrity: true,
      manifest: true,
      findings: true,
      skill: { select: { scopeName: true, name: true } },
      evidence: { select: { status: true, evidence: true } },
      provenance: true,
    },
  });
  if (!v) throw new AppError('skill/version-not-found', 'The version does not exist.');
  const label = `@${v.skill.scopeName}/${v.skill.name}@${v.version}`;
  if (!v.integrity) throw new AppError('skill/tarball-not-found', `${label} has no stored tarball, so there is nothing to sign.`);
  return {
    scope: v.skill.scopeName,
    name: v.skill.name,
    version: v.version,
    integrity: v.integrity,
    manifest: v.manifest as unknown as SkillManifest,
    findings: Array.isArray(v.findings) ? (v.findings as Array<{ rule: string; severity: string }>) : [],
    issuedAt: new Date(),
    // issue 30: the publish-time run's evidence once it is done, and the trusted publisher's provenance
    ...(v.evidence?.status === 'done' && v.evidence.evidence ? { evidence: statementEvidence(v.evidence.evidence as unknown as Evidence) } : {}),
    ...(v.provenance ? { provenance: statementProvenance(v.provenance) } : {}),
  };
}

/** The version's current statement, signing one when it has none valid. */
export async function statementForVersion(db: Db, versionId: string): Promise<Omit<VersionStatementOut, 'version'>> {
  const existing = await db.versionStatement.findFirst({
    where: { versionId, key: { revokedAt: null } },
    orderBy: { createdAt: 'desc' },
    select: { keyId: true, jws: true },
  });
  if (existing) {
    const signed = readStatementPayload(existing.jws)!;
    // one signed before the publish-time run finished is replaced once its evidence is there
    const evidenceSince = !signed.evidence && (await db.versionEvidence.count({ where: { versionId, status: 'done' } })) > 0;
    if (!evidenceSince) return { ...existing, payload: signed };
  }
  const payload = buildStatementPayload(await statementInputFor(db, versionId));
  const key = await activeSigningKey(db);
  const jws = signStatement(payload, key);
  await db.versionStatement.create({ data: { versionId, keyId: key.kid, jws } });
  return { keyId: key.kid, jws, payload };
}

/** The statement of `@scope/name@spec` as a viewer may see it. */
export async function getVersionStatement(db: Db, ref: { scope: string; name: string; version: string }, viewer: Viewer): Promise<VersionStatementOut> {
  const skill = await findVisibleSkill(db, ref, viewer);
  const v = await resolveVersion(db, skill, ref.version);
  return { version: v.version, ...(await statementForVersion(db, v.id)) };
}
