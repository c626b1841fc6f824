'use server';
// Star or unstar a skill from the home page or its page: same-origin check, a signed-in
// user, a parsed reference; lib/registry answers "not found" for a skill the user may
// not see, exactly as the REST route does.
import { z } from 'zod';
import { currentUser } from '@/lib/auth/current-user';
import { assertSameOrigin } from '@/lib/auth/same-origin';
import { actionFailure, type ActionFailure } from '@/lib/api/action-failure';
import { AppError } from '@/lib/errors';
import { serverContext } from '@/lib/server';
import { SkillParams } from '@/lib/registry/skill-route-params';
import { starSkill } from '@/lib/registry/star-skill';

const StarInput = SkillParams.extend({ starred: z.boolean() });

export type StarResult = { ok: true; starred: boolean; stars: number } | { ok: false; error: ActionFailure };

export async function starSkillAction(input: { scope: string; name: string; starred: boolean }): Promise<StarResult> {
  try {
    await assertSameOrigin();
    const user = await currentUser();
    if (!user) throw new AppError('auth/unauthenticated', 'Sign in to star skills.');
    const ref = StarInput.parse(input);
    const res = await starSkill(serverContext().db, { scope: ref.scope, name: ref.name }, user.id, ref.starred);
    return { ok: true, ...res };
  } catch (err) {
    return { ok: false, error: await actionFailure(err, 'star') };
  }
}
