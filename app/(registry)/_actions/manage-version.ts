'use server';
// The skill page's version controls (yank, unyank, deprecate, undeprecate, set or remove
// a dist-tag) through the action chain (same origin, a signed-in user, the input parsed);
// lib/registry checks the scope exactly as the REST routes do and writes the audit log.
import { revalidatePath } from 'next/cache';
import { formText, serverAction, type ActionState } from '@/lib/actions';
import { manageVersion, ZManageVersion } from '@/lib/registry';

type State = ActionState<{ message: string | null }>;

const manage = serverAction({ name: 'manage version', input: ZManageVersion, signedIn: { message: 'Sign in to manage versions.' } }, async (input, ctx) => ({
  message: await manageVersion(ctx.db, { principal: ctx.principal, ip: ctx.address }, input),
}));

export async function manageVersionAction(_prev: State, form: FormData): Promise<State> {
  const keys = ['op', 'scope', 'name', 'version', 'reason', 'message', 'tag'] as const;
  const input = Object.fromEntries(keys.map((k) => [k, formText(form, k)]));
  const state = await manage(input);
  if (state.ok) revalidatePath(`/skills/${input.scope}/${input.name}`);
  return state;
}
