// A version's scan findings as the page and the API show them: each with why its rule
// matters and the newest owner review of it (reason, who, when), if any.
import 'server-only';
import type { Db } from '../db';
import { findVisibleSkill } from './find-visible-skill';
import type { Viewer } from './get-skill';
import { resolveVersion } from './resolve-version';
import { listFindingReviews, type FindingReviewOut } from './review-finding';
import { whyItMatters, type ScanFinding } from './scan-package';

export type ExplainedFinding = ScanFinding & { why: string; review: FindingReviewOut | null };

/** Findings of a version row, explained, with their newest reviews. */
/** `reviews`: the version's reviews when the caller has them (else they are read, if there are findings). */
export async function explainFindings(db: Db, versionId: string, findings: ScanFinding[], reviews?: FindingReviewOut[]): Promise<ExplainedFinding[]> {
  reviews ??= findings.length ? await listFindingReviews(db, versionId) : [];
  return findings.map((f) => ({
    ...f,
    why: whyItMatters(f.rule),
    review: reviews.find((r) => r.rule === f.rule && r.file === f.file && r.line === f.line) ?? null,
  }));
}

export async function getVersionFindings(
  db: Db,
  ref: { scope: string; name: string; version: string },
  viewer: Viewer,
): Promise<{ version: string; findings: ExplainedFinding[]; reviews: FindingReviewOut[] }> {
  const skill = await findVisibleSkill(db, ref, viewer);
  const v = await resolveVersion(db, skill, ref.version);
  const row = await db.skillVersion.findUnique({ where: { id: v.id }, select: { findings: true } });
  const findings = (Array.isArray(row?.findings) ? row.findings : []) as ScanFinding[];
  const reviews = await listFindingReviews(db, v.id);
  return { version: v.version, findings: await explainFindings(db, v.id, findings, reviews), reviews };
}
