'use server';
// Settings mutations: API tokens, own model keys, account deletion. Each checks the
// origin and the session, parses its input, and touches only the caller's own rows.
import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { signOut } from '@/lib/auth/auth';
import { currentUser } from '@/lib/auth/current-user';
import { deleteAccount } from '@/lib/auth/delete-account';
import { issueApiToken, revokeApiToken } from '@/lib/auth/manage-api-tokens';
import { deleteModelKey, setModelKey } from '@/lib/auth/model-keys';
import { assertSameOrigin } from '@/lib/auth/same-origin';
import { serverContext } from '@/lib/server';
import { actionFailure } from '@/lib/api/action-failure';
import { isAppError } from '@/lib/errors';

export type FormState = { error: string | null; token?: string; done?: string };

async function signedIn() {
  await assertSameOrigin();
  const user = await currentUser();
  if (!user) redirect('/signin?next=/settings');
  return user;
}

/** Expected failures say what went wrong; anything else is logged with the request id, which the form shows. */
async function failure(err: unknown, what: string): Promise<FormState> {
  return { error: (await actionFailure(err, `settings: ${what}`)).message };
}

export async function createApiTokenAction(_prev: FormState, form: FormData): Promise<FormState> {
  const user = await signedIn();
  const days = String(form.get('expiresInDays') ?? '30');
  try {
    const { token } = await issueApiToken(serverContext().db, user.id, {
      name: String(form.get('name') ?? ''),
      scopes: form.getAll('scope').map(String),
      expiresInDays: days === 'never' ? null : Number(days),
    });
    revalidatePath('/settings');
    // shown once: only its hash is stored
    return { error: null, token };
  } catch (err) {
    return await failure(err, 'create a token');
  }
}

export async function revokeApiTokenAction(form: FormData): Promise<void> {
  const user = await signedIn();
  try {
    await revokeApiToken(serverContext().db, user.id, String(form.get('id') ?? ''));
  } catch (err) {
    if (!isAppError(err)) throw err;
  }
  revalidatePath('/settings');
}

export async function setModelKeyAction(_prev: FormState, form: FormData): Promise<FormState> {
  const user = await signedIn();
  try {
    const row = await setModelKey(serverContext().db, user.id, String(form.get('provider') ?? ''), String(form.get('key') ?? ''));
    revalidatePath('/settings');
    return { error: null, done: `Saved the ${row.provider} key ending in ${row.last4}.` };
  } catch (err) {
    return await failure(err, 'save a model key');
  }
}

export async function deleteModelKeyAction(form: FormData): Promise<void> {
  const user = await signedIn();
  await deleteModelKey(serverContext().db, user.id, String(form.get('provider') ?? ''));
  revalidatePath('/settings');
}

export async function deleteAccountAction(_prev: FormState, form: FormData): Promise<FormState> {
  const user = await signedIn();
  const expected = user.handle ?? user.email ?? 'delete my account';
  if (String(form.get('confirm') ?? '').trim() !== expected) return { error: `Type ${expected} to confirm.` };
  try {
    await deleteAccount(serverContext().db, user.id);
  } catch (err) {
    return await failure(err, 'delete the account');
  }
  // the session row went with the user; this clears the cookie
  await signOut({ redirectTo: '/' });
  return { error: null };
}
