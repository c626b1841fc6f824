'use server';
// Mark a scan finding as reviewed, with a reason, from the skill page: the action chain
// (same origin, a signed-in user, parsed input); lib/registry checks that the user may publish into the
// scope and that the finding exists, stores the review and writes the team's audit row.
import { z } from 'zod';
import { serverAction, type ActionResult } from '@/lib/actions';
import { VersionParams, reviewFinding } from '@/lib/registry';

const ReviewInput = VersionParams.extend({
  rule: z.string().min(1).max(100),
  file: z.string().min(1).max(1000),
  line: z.number().int().min(1).max(10_000_000),
  reason: z.string().trim().min(10, 'Say why in at least 10 characters.').max(1000),
});

export type ReviewResult = ActionResult<{ reason: string; reviewedBy: string | null; at: string }>;

const review = serverAction({ name: 'review-finding', input: ReviewInput, signedIn: { message: 'Sign in to review findings.' } }, async (p, { db, user, principal, address }) => {
  const r = await reviewFinding(db, { ...p, userId: user.id }, { principal, ip: address });
  return { reason: r.reason, reviewedBy: r.reviewedBy, at: r.createdAt.toISOString() };
});

export async function reviewFindingAction(input: z.input<typeof ReviewInput>): Promise<ReviewResult> {
  return review(input);
}
