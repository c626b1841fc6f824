'use server';
// The skill page's trusted publisher settings (add, remove): the action chain (same
// origin, signed-in user), then lib/trusted-publishing checks who may publish the skill
// exactly as the REST routes do; a team scope's audit log records each change.
import { revalidatePath } from 'next/cache';
import { teamAction, type TeamActionState as ActionState } from '@/lib/actions';
import { requireUser } from '@/lib/principal';
import { auditScopeAction } from '@/lib/teams';
import { addTrustedPublisher, removeTrustedPublisher } from '@/lib/trusted-publishing';

const text = (form: FormData, k: string) => {
  const v = form.get(k);
  return typeof v === 'string' ? v.trim() : '';
};

export async function addTrustedPublisherAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const ref = { scope: text(form, 'scope'), name: text(form, 'name') };
  const claims: Record<string, string> = {};
  for (const k of ['repository', 'workflow_ref', 'environment']) if (text(form, k)) claims[k] = text(form, k);
  const state = await teamAction(async (db, actor) => {
    const added = await addTrustedPublisher(db, ref, requireUser(actor.principal), { issuer: text(form, 'issuer'), claims });
    await auditScopeAction(db, ref.scope, actor, 'skill.trusted-publisher-add', `@${ref.scope}/${ref.name}`, { issuer: added.issuer, ...added.claims });
    return { message: `Trusted publisher added: ${added.claims.repository ?? added.issuer}.` };
  });
  if (state.ok) revalidatePath(`/skills/${ref.scope}/${ref.name}`);
  return state;
}

export async function removeTrustedPublisherAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const ref = { scope: text(form, 'scope'), name: text(form, 'name') };
  const id = text(form, 'id');
  const state = await teamAction(async (db, actor) => {
    await removeTrustedPublisher(db, ref, requireUser(actor.principal), id);
    await auditScopeAction(db, ref.scope, actor, 'skill.trusted-publisher-remove', `@${ref.scope}/${ref.name}`, { id });
    return { message: 'Trusted publisher removed.' };
  });
  if (state.ok) revalidatePath(`/skills/${ref.scope}/${ref.name}`);
  return state;
}
