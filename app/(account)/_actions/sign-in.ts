'use server';
// Sign-in and sign-out from the browser. Every sign-in goes through /welcome, which
// asks a new user for a username before sending them on to where they were going.
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { limitSignIn, signInAddress } from '@/lib/auth/sign-in-limit';
import { isAppError } from '@/lib/errors';
import { AuthError } from 'next-auth';
import { z } from 'zod';
import { signIn, signOut } from '@/lib/auth/auth';
import { assertSameOrigin } from '@/lib/auth/same-origin';
import { safeLocalPath } from '@/lib/auth/safe-redirect';
import { currentUser } from '@/lib/auth/current-user';
import { endAllSessions } from '@/lib/auth/sessions';
import { serverContext } from '@/lib/server';

export type SignInState = { error: string | null };

const Email = z.email('That is not an e-mail address.').max(254);

const welcome = (next: string) => `/welcome?next=${encodeURIComponent(next)}`;

export async function signInWithEmail(_prev: SignInState, form: FormData): Promise<SignInState> {
  await assertSameOrigin();
  const email = Email.safeParse(
    String(form.get('email') ?? '')
      .trim()
      .toLowerCase(),
  );
  if (!email.success) return { error: email.error.issues[0].message };
  const next = safeLocalPath(form.get('next'));
  try {
    await limitSignIn(serverContext().db, signInAddress(await headers()), email.data);
  } catch (err) {
    if (isAppError(err)) return { error: err.message };
    throw err;
  }
  try {
    // no redirect through /api/auth/verify-request: the client router would keep that URL
    await signIn('email', { email: email.data, redirectTo: welcome(next), redirect: false });
  } catch (err) {
    if (err instanceof AuthError) return { error: 'The sign-in link could not be sent. Try again in a moment.' };
    throw err;
  }
  redirect('/signin/check-email');
}

export async function signInWithProvider(form: FormData): Promise<void> {
  await assertSameOrigin();
  const provider = z
    .string()
    .regex(/^[a-z][a-z0-9-]{0,31}$/)
    .safeParse(form.get('provider'));
  if (!provider.success) redirect('/signin/error?error=Configuration');
  const next = safeLocalPath(form.get('next'));
  try {
    await limitSignIn(serverContext().db, signInAddress(await headers()), null);
  } catch (err) {
    if (isAppError(err) && err.code === 'rate/limited') redirect('/signin/error?error=RateLimited');
    throw err;
  }
  try {
    await signIn(provider.data, { redirectTo: welcome(next) });
  } catch (err) {
    if (err instanceof AuthError) redirect(`/signin/error?error=${encodeURIComponent(err.type)}`);
    throw err;
  }
}

export async function signOutAction(): Promise<void> {
  await assertSameOrigin();
  await signOut({ redirectTo: '/' });
}

/** Ends every session of the user (all browsers), then this one. */
export async function signOutEverywhere(): Promise<void> {
  await assertSameOrigin();
  const user = await currentUser();
  if (user) await endAllSessions(serverContext().db, user.id);
  await signOut({ redirectTo: '/' });
}
