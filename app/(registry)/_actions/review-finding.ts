'use server';
// Mark a scan finding as reviewed, with a reason, from the skill page: same-origin check,
// a signed-in user, parsed input; lib/registry checks that the user may publish into the
// scope and that the finding exists, stores the review and writes the team's audit row.
import { headers } from 'next/headers';
import { z } from 'zod';
import { currentUser } from '@/lib/auth/current-user';
import { assertSameOrigin } from '@/lib/auth/same-origin';
import { actionFailure, type ActionFailure } from '@/lib/api/action-failure';
import { clientAddressOf, userPrincipal } from '@/lib/principal';
import { AppError } from '@/lib/errors';
import { serverContext } from '@/lib/server';
import { VersionParams } from '@/lib/registry/skill-route-params';
import { reviewFinding } from '@/lib/registry/review-finding';

const ReviewInput = VersionParams.extend({
  rule: z.string().min(1).max(100),
  file: z.string().min(1).max(1000),
  line: z.number().int().min(1).max(10_000_000),
  reason: z.string().trim().min(10, 'Say why in at least 10 characters.').max(1000),
});

export type ReviewResult = { ok: true; reason: string; reviewedBy: string | null; at: string } | { ok: false; error: ActionFailure };

export async function reviewFindingAction(input: z.input<typeof ReviewInput>): Promise<ReviewResult> {
  try {
    await assertSameOrigin();
    const user = await currentUser();
    if (!user) throw new AppError('auth/unauthenticated', 'Sign in to review findings.');
    const p = ReviewInput.parse(input);
    const ip = clientAddressOf(await headers());
    const r = await reviewFinding(serverContext().db, { ...p, userId: user.id }, { principal: userPrincipal(user.id), ip });
    return { ok: true, reason: r.reason, reviewedBy: r.reviewedBy, at: r.createdAt.toISOString() };
  } catch (err) {
    return { ok: false, error: await actionFailure(err, 'review-finding') };
  }
}
