'use server';
// Team lifecycle actions: create, rename, delete. Each goes through teamAction first
// (same-origin, signed-in user, audit IP) and a lib/teams operation that checks the role.
import { redirect } from 'next/navigation';
import { revalidatePath } from 'next/cache';
import { teamAction, type TeamActionState as ActionState } from '@/lib/actions';
import { AppError } from '@/lib/errors';
import { createTeam, deleteTeam, renameTeam } from '@/lib/teams';

export async function createTeamAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  let slug = '';
  const state = await teamAction(async (db, actor) => {
    slug = (await createTeam(db, actor, { slug: form.get('slug'), name: form.get('name') })).slug;
  });
  if (state.ok) redirect(`/teams/${slug}`);
  return state;
}

export async function renameTeamAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const slug = String(form.get('team') ?? '');
  const state = await teamAction(async (db, actor) => void (await renameTeam(db, actor, slug, form.get('name'))));
  if (state.ok) revalidatePath(`/teams/${slug}`);
  return { ...state, message: state.ok ? 'Saved.' : null };
}

export async function deleteTeamAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const slug = String(form.get('team') ?? '');
  const state = await teamAction(async (db, actor) => {
    if (form.get('confirm') !== slug) throw new AppError('input/invalid', `Type ${slug} to confirm.`);
    await deleteTeam(db, actor, slug);
  });
  if (state.ok) redirect('/teams');
  return state;
}
