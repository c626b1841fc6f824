'use server';
// Star or unstar a skill from the home page or its page, through the action chain (a
// signed-in user, a parsed reference); lib/registry answers "not found" for a skill the
// user may not see, exactly as the REST route does.
import { z } from 'zod';
import { serverAction, type ActionState } from '@/lib/actions';
import { SkillParams, starSkill } from '@/lib/registry';

const StarInput = SkillParams.extend({ starred: z.boolean() });

export type StarResult = ActionState<{ starred: boolean; stars: number }>;

const star = serverAction({ name: 'star', input: StarInput, signedIn: { message: 'Sign in to star skills.' } }, (ref, { db, user }) =>
  starSkill(db, { scope: ref.scope, name: ref.name }, user.id, ref.starred),
);

export async function starSkillAction(input: { scope: string; name: string; starred: boolean }): Promise<StarResult> {
  return star(input);
}
