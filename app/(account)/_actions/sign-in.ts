'use server';
// Sign-in and sign-out from the browser, on the action chain (origin first; no session
// needed: a signed-out caller is who signs in). Every sign-in goes through /welcome, which
// asks a new user for a username before sending them on to where they were going. Sign-in
// attempts are limited per address and e-mail (lib/auth/sign-in-limit.ts), not by the API budget.
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { AuthError } from 'next-auth';
import { z } from 'zod';
import { actionError, formText, serverAction, type ActionState } from '@/lib/actions';
import { signIn, signOut } from '@/lib/session';
import { safeLocalPath, endAllSessions, limitSignIn, signInAddress } from '@/lib/auth';
import { AppError } from '@/lib/errors';

export type SignInState = ActionState;

const Email = z.email('That is not an e-mail address.').max(254);
const ProviderId = z.string().regex(/^[a-z][a-z0-9-]{0,31}$/);

const welcome = (next: string) => `/welcome?next=${encodeURIComponent(next)}`;

const withEmail = serverAction({ name: 'sign in by e-mail', input: z.object({ email: z.string(), next: z.string() }) }, async (input, { db }) => {
  const email = Email.safeParse(input.email.trim().toLowerCase());
  if (!email.success) throw new AppError('input/invalid', email.error.issues[0].message, { details: { field: 'email' } });
  await limitSignIn(db, signInAddress(await headers()), email.data);
  try {
    // no redirect through /api/auth/verify-request: the client router would keep that URL
    await signIn('email', { email: email.data, redirectTo: welcome(input.next), redirect: false });
  } catch (err) {
    if (err instanceof AuthError) throw new AppError('auth/sign-in-failed', 'The sign-in link could not be sent. Try again in a moment.');
    throw err;
  }
  redirect('/signin/check-email');
});

export async function signInWithEmail(_prev: SignInState, form: FormData): Promise<SignInState> {
  return withEmail({ email: formText(form, 'email') ?? '', next: safeLocalPath(form.get('next')) });
}

const withProvider = serverAction({ name: 'sign in with a provider', input: z.object({ provider: ProviderId, next: z.string() }) }, async ({ provider, next }, { db }) => {
  await limitSignIn(db, signInAddress(await headers()), null);
  try {
    await signIn(provider, { redirectTo: welcome(next) });
  } catch (err) {
    if (err instanceof AuthError) redirect(`/signin/error?error=${encodeURIComponent(err.type)}`);
    throw err;
  }
});

export async function signInWithProvider(form: FormData): Promise<void> {
  const state = await withProvider({ provider: form.get('provider'), next: safeLocalPath(form.get('next')) });
  if (state.ok) return;
  // the sign-in pages explain these; anything else (another site's form) is an error
  if (state.code === 'input/invalid') redirect('/signin/error?error=Configuration');
  if (state.code === 'rate/limited') redirect('/signin/error?error=RateLimited');
  throw actionError(state);
}

// ends only the session of the cookie it is sent with
const out = serverAction({ name: 'sign out' }, async () => {
  await signOut({ redirectTo: '/' });
});

export async function signOutAction(): Promise<void> {
  const state = await out();
  if (!state.ok) throw actionError(state);
}

/** Ends every session of the user (all browsers), then this one. */
const outEverywhere = serverAction({ name: 'sign out everywhere' }, async (_: undefined, { db, user }) => {
  if (user) await endAllSessions(db, user.id);
  await signOut({ redirectTo: '/' });
});

export async function signOutEverywhere(): Promise<void> {
  const state = await outEverywhere();
  if (!state.ok) throw actionError(state);
}
