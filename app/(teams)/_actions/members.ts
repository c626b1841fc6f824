'use server';
// Membership actions: invite (returns the link once), revoke an invite, accept, change a
// role, remove a member, leave.
import { redirect } from 'next/navigation';
import { revalidatePath } from 'next/cache';
import { teamAction, type TeamActionState as ActionState } from '@/lib/actions';
import { acceptInvite, changeMemberRole, createInvite, removeMember, revokeInvite } from '@/lib/teams';

const teamOf = (form: FormData) => String(form.get('team') ?? '');

export async function inviteAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const slug = teamOf(form);
  const state = await teamAction(async (db, actor) => {
    const inv = await createInvite(db, actor, slug, { role: form.get('role') ?? 'member', email: form.get('email') || undefined });
    return { secret: inv.secret, message: `Invitation for ${inv.email ?? 'anyone with the link'} as ${inv.role}, valid until ${inv.expiresAt.toISOString().slice(0, 10)}.` };
  });
  if (state.ok) revalidatePath(`/teams/${slug}`);
  return state;
}

export async function revokeInviteAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const slug = teamOf(form);
  const state = await teamAction((db, actor) => revokeInvite(db, actor, slug, String(form.get('invite') ?? '')));
  if (state.ok) revalidatePath(`/teams/${slug}`);
  return state;
}

export async function acceptInviteAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  let slug = '';
  const state = await teamAction(async (db, actor) => {
    slug = (await acceptInvite(db, actor, form.get('code'))).slug;
  });
  if (state.ok) redirect(`/teams/${slug}`);
  return state;
}

export async function changeRoleAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const slug = teamOf(form);
  const state = await teamAction((db, actor) => changeMemberRole(db, actor, slug, String(form.get('member') ?? ''), form.get('role')));
  if (state.ok) revalidatePath(`/teams/${slug}`);
  return { ...state, message: state.ok ? 'Role changed.' : null };
}

export async function removeMemberAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const slug = teamOf(form);
  const member = String(form.get('member') ?? '');
  const leaving = form.get('leave') === '1';
  const state = await teamAction((db, actor) => removeMember(db, actor, slug, member));
  if (state.ok && leaving) redirect('/teams');
  if (state.ok) revalidatePath(`/teams/${slug}`);
  return state;
}
