import type { Metadata } from 'next';
import Link from 'next/link';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Sign-in problem' };

// Auth.js error types (and ours) in words a person can act on.
const MESSAGES: Record<string, string> = {
  Configuration: 'This sign-in method is not configured correctly on the server. The operator can see the reason in its log.',
  AccessDenied: 'The provider did not grant access (you cancelled, or the account is not allowed).',
  Verification: 'That sign-in link has expired or was already used. Ask for a new one.',
  OAuthAccountNotLinked:
    'That account belongs to another Skillyard user, or an account with the same e-mail exists: sign in the way you did before, then connect this one from Settings.',
  OAuthCallbackError: 'The provider sent us back an error instead of a sign-in.',
  OAuthSignInError: 'We could not start the sign-in with that provider.',
  CallbackRouteError: 'The provider’s answer could not be checked (expired or replayed sign-in, or a state/PKCE mismatch). Try again.',
  InvalidCheck: 'The sign-in could not be verified (state or PKCE check failed). Start again from the sign-in page.',
  EmailSignInError: 'The sign-in link could not be sent.',
  RateLimited: 'Too many sign-in attempts from your network. Wait a few minutes, then try again.',
};

export default async function SignInErrorPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const code = typeof params.error === 'string' ? params.error : 'Default';
  const message = MESSAGES[code] ?? 'Something went wrong while signing in.';
  return (
    <div className="mx-auto max-w-md space-y-4 py-12 text-center">
      <h1 className="text-2xl font-semibold tracking-tight">Sign-in did not work</h1>
      <p className="text-zinc-600 dark:text-zinc-400" data-testid="signin-error">
        {message}
      </p>
      <p className="text-xs text-zinc-500">
        Code: <code>{/^[A-Za-z]{1,40}$/.test(code) ? code : 'Default'}</code>
      </p>
      <Link href="/signin" className="inline-block rounded-lg bg-emerald-700 px-4 py-2 text-sm font-medium text-white hover:bg-emerald-800">
        Back to sign-in
      </Link>
    </div>
  );
}
