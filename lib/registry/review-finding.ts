// An owner marks one scan finding of a version as reviewed, with a reason: the finding
// stays (the scan's verdict is a fact), the page shows the review beside it, and the
// review is a row of its own (never edited) and, for a team scope, a row of the team's
// audit log too.
import 'server-only';
import type { Db } from '../db';
import { AppError } from '../errors';
import { auditScopeAction, type Actor } from '../teams';
import { assertScopeOwner } from './assert-scope-owner';
import type { ScanFinding } from './scan-package';

export type FindingKey = { rule: string; file: string; line: number };
export type FindingReviewOut = FindingKey & { id: string; reason: string; reviewedBy: string | null; createdAt: Date };

export type ReviewFindingInput = FindingKey & { scope: string; name: string; version: string; reason: string; userId: string };

/** `actor` is who the team audit log names (the route's or the form's caller). */
export async function reviewFinding(db: Db, input: ReviewFindingInput, actor: Actor): Promise<FindingReviewOut> {
  await assertScopeOwner(db, input.scope, input.userId, input.name);
  const label = `@${input.scope}/${input.name}@${input.version}`;
  const v = await db.skillVersion.findFirst({
    where: { version: input.version, skill: { scopeName: input.scope, name: input.name } },
    select: { id: true, findings: true },
  });
  if (!v) throw new AppError('skill/version-not-found', `${label} does not exist.`);
  const findings = (Array.isArray(v.findings) ? v.findings : []) as ScanFinding[];
  if (!findings.some((f) => f.rule === input.rule && f.file === input.file && f.line === input.line)) {
    throw new AppError('skill/finding-not-found', `${label} has no finding ${input.rule} at ${input.file}:${input.line}.`);
  }
  const row = await db.findingReview.create({
    data: { versionId: v.id, rule: input.rule, file: input.file, line: input.line, reason: input.reason, reviewedById: input.userId },
    select: { id: true, rule: true, file: true, line: true, reason: true, createdAt: true, reviewedBy: { select: { handle: true } } },
  });
  await auditScopeAction(db, input.scope, actor, 'skill.review-finding', label, { rule: input.rule, file: input.file, line: input.line, reason: input.reason });
  return { id: row.id, rule: row.rule, file: row.file, line: row.line, reason: row.reason, reviewedBy: row.reviewedBy?.handle ?? null, createdAt: row.createdAt };
}

/** The reviews of a version's findings, newest first (the page shows the newest per finding). */
export async function listFindingReviews(db: Db, versionId: string): Promise<FindingReviewOut[]> {
  const rows = await db.findingReview.findMany({
    where: { versionId },
    orderBy: { createdAt: 'desc' },
    take: 1000,
    select: { id: true, rule: true, file: true, line: true, reason: true, createdAt: true, reviewedBy: { select: { handle: true } } },
  });
  return rows.map((r) => ({ id: r.id, rule: r.rule, file: r.file, line: r.line, reason: r.reason, reviewedBy: r.reviewedBy?.handle ?? null, createdAt: r.createdAt }));
}
