'use server';
// The skill page's version controls (yank, unyank, deprecate, undeprecate, set or remove
// a dist-tag): same-origin check and the signed-in user (the action chain), then
// lib/registry parses the form and checks the scope exactly as the REST routes do.
import { revalidatePath } from 'next/cache';
import { teamAction, type ActionState } from '@/lib/actions/team-action';
import { manageVersion } from '@/lib/registry/manage-version';

export async function manageVersionAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const field = (k: string) => {
    const v = form.get(k);
    return typeof v === 'string' ? v : undefined;
  };
  const input = { op: field('op'), scope: field('scope'), name: field('name'), version: field('version'), reason: field('reason'), message: field('message'), tag: field('tag') };
  const state = await teamAction(async (db, actor) => ({ message: await manageVersion(db, actor, input) }));
  if (state.ok) revalidatePath(`/skills/${input.scope}/${input.name}`);
  return state;
}
