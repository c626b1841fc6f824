'use server';
// Team secrets (write-only) and team API tokens (shown once).
import { revalidatePath } from 'next/cache';
import { teamAction, type TeamActionState as ActionState } from '@/lib/actions';
import { createTeamApiToken, deleteTeamSecret, revokeTeamApiToken, setTeamSecret } from '@/lib/teams';

const teamOf = (form: FormData) => String(form.get('team') ?? '');

export async function setSecretAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const slug = teamOf(form);
  const name = String(form.get('name') ?? '');
  const state = await teamAction((db, actor) => setTeamSecret(db, actor, slug, name, form.get('value')));
  if (state.ok) revalidatePath(`/teams/${slug}`);
  return { ...state, message: state.ok ? `${name} saved. Its value will not be shown again.` : null };
}

export async function deleteSecretAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const slug = teamOf(form);
  const state = await teamAction((db, actor) => deleteTeamSecret(db, actor, slug, String(form.get('name') ?? '')));
  if (state.ok) revalidatePath(`/teams/${slug}`);
  return state;
}

export async function createTeamTokenAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const slug = teamOf(form);
  const days = Number(form.get('days') ?? 0);
  const state = await teamAction(async (db, actor) => {
    const t = await createTeamApiToken(db, actor, slug, {
      name: form.get('name'),
      scopes: form.getAll('scopes').map(String),
      expiresAt: days > 0 ? new Date(Date.now() + days * 86_400_000) : null,
    });
    return { secret: t.token, message: 'Copy the token now: it will not be shown again.' };
  });
  if (state.ok) revalidatePath(`/teams/${slug}`);
  return state;
}

export async function revokeTeamTokenAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const slug = teamOf(form);
  const state = await teamAction((db, actor) => revokeTeamApiToken(db, actor, slug, String(form.get('token') ?? '')));
  if (state.ok) revalidatePath(`/teams/${slug}`);
  return state;
}
