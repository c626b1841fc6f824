'use server';
// Settings mutations: API tokens, own model keys, account deletion. Each goes through the
// action chain (origin, session, parsed input) and touches only the caller's own rows.
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { actionError, serverAction, formText, type ActionState } from '@/lib/actions';
import { signOut } from '@/lib/session';
import { deleteAccount, issueApiToken, revokeApiToken, deleteModelKey, setModelKey } from '@/lib/auth';

export type FormState = ActionState<{ token: string; done: string }>;

const signedIn = { redirectTo: '/signin?next=/settings' };

const createToken = serverAction(
  { name: 'settings: create a token', signedIn, input: z.object({ name: z.string(), scopes: z.array(z.string()), days: z.string() }) },
  async ({ name, scopes, days }, { db, user }) => {
    const { token } = await issueApiToken(db, user.id, { name, scopes, expiresInDays: days === 'never' ? null : Number(days) });
    revalidatePath('/settings');
    // shown once: only its hash is stored
    return { token };
  },
);

export async function createApiTokenAction(_prev: FormState, form: FormData): Promise<FormState> {
  return createToken({ name: formText(form, 'name') ?? '', scopes: form.getAll('scope').map(String), days: formText(form, 'expiresInDays') ?? '30' });
}

const revokeToken = serverAction({ name: 'settings: revoke a token', signedIn, input: z.string() }, async (id, { db, user }) => {
  await revokeApiToken(db, user.id, id);
});

export async function revokeApiTokenAction(form: FormData): Promise<void> {
  const state = await revokeToken(formText(form, 'id') ?? '');
  // a refusal of the caller is an error; any other (a token already gone) changes nothing on the page
  if (!state.ok && (state.code === 'internal' || state.code?.startsWith('auth/'))) throw actionError(state);
  revalidatePath('/settings');
}

const saveModelKey = serverAction(
  { name: 'settings: save a model key', signedIn, input: z.object({ provider: z.string(), key: z.string() }) },
  async ({ provider, key }, { db, user }) => {
    const row = await setModelKey(db, user.id, provider, key);
    revalidatePath('/settings');
    return { done: `Saved the ${row.provider} key ending in ${row.last4}.` };
  },
);

export async function setModelKeyAction(_prev: FormState, form: FormData): Promise<FormState> {
  return saveModelKey({ provider: formText(form, 'provider') ?? '', key: formText(form, 'key') ?? '' });
}

const removeModelKey = serverAction({ name: 'settings: delete a model key', signedIn, input: z.string() }, async (provider, { db, user }) => {
  await deleteModelKey(db, user.id, provider);
});

export async function deleteModelKeyAction(form: FormData): Promise<void> {
  const state = await removeModelKey(formText(form, 'provider') ?? '');
  if (!state.ok) throw actionError(state);
  revalidatePath('/settings');
}

const removeAccount = serverAction({ name: 'settings: delete the account', signedIn, input: z.string() }, async (confirm, { db, user }): Promise<{ refused: string | null }> => {
  const expected = user.handle ?? user.email ?? 'delete my account';
  if (confirm.trim() !== expected) return { refused: `Type ${expected} to confirm.` };
  await deleteAccount(db, user.id);
  return { refused: null };
});

export async function deleteAccountAction(_prev: FormState, form: FormData): Promise<FormState> {
  const state = await removeAccount(formText(form, 'confirm') ?? '');
  if (!state.ok) return state;
  if (state.refused) return { ok: false, error: state.refused };
  // the session row went with the user; this clears the cookie
  await signOut({ redirectTo: '/' });
  return { ok: true, error: null };
}
