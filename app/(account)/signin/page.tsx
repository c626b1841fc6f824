import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { currentUser } from '@/lib/session';
import { emailDelivery, providersFromEnv, safeLocalPath, sameHostPath } from '@/lib/auth';
import { signInWithProvider } from '../_actions/sign-in';
import { EmailSignInForm } from './email-sign-in-form';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Sign in' };

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  // Auth.js sends some failures (an account that may not be linked, above all) back to the
  // sign-in page as ?error=…: show what happened instead of a plain sign-in form
  if (typeof params.error === 'string') redirect(`/signin/error?error=${/^[A-Za-z]{1,40}$/.test(params.error) ? params.error : 'Default'}`);
  const next = safeLocalPath(typeof params.callbackUrl === 'string' ? sameHostPath(params.callbackUrl, (await headers()).get('host')) : params.next);
  if (await currentUser()) redirect(next);
  let providers: Array<{ id: string; name: string }> = [];
  let configError: string | null = null;
  try {
    providers = providersFromEnv().filter((p) => p.signIn);
  } catch (err) {
    configError = (err as Error).message;
  }
  const delivery = emailDelivery();
  return (
    <div className="mx-auto max-w-md space-y-8 py-8">
      <header className="space-y-2">
        <h1 className="text-2xl font-semibold tracking-tight">Sign in to Skillyard</h1>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">Your runs become yours, and connecting an account unlocks the tools that need it.</p>
      </header>
      {configError && (
        <p role="alert" className="rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-800 dark:border-red-900 dark:bg-red-950/40 dark:text-red-300">
          The sign-in providers are misconfigured: {configError}
        </p>
      )}
      {providers.length > 0 && (
        <ul className="space-y-2" aria-label="Sign-in providers">
          {providers.map((p) => (
            <li key={p.id}>
              <form action={signInWithProvider}>
                <input type="hidden" name="provider" value={p.id} />
                <input type="hidden" name="next" value={next} />
                <button
                  type="submit"
                  className="w-full rounded-lg border border-zinc-300 px-4 py-2.5 text-sm font-medium hover:bg-zinc-50 dark:border-zinc-700 dark:hover:bg-zinc-900"
                >
                  Continue with {p.name}
                </button>
              </form>
            </li>
          ))}
        </ul>
      )}
      <section aria-labelledby="email-heading" className="space-y-3">
        <h2 id="email-heading" className="text-sm font-medium">
          {providers.length > 0 ? 'Or get a sign-in link by e-mail' : 'Get a sign-in link by e-mail'}
        </h2>
        <EmailSignInForm next={next} />
        {delivery === 'log' ? (
          <p className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950/40 dark:text-amber-200" data-testid="email-log-mode">
            This server has no mail server configured (<code>SKILLYARD_SMTP_URL</code>): the sign-in link is printed to the server&apos;s log instead of being e-mailed. Whoever
            runs the server opens it from there.
          </p>
        ) : (
          <p className="text-sm text-zinc-500">We e-mail you a link that signs you in. It works once, for 15 minutes.</p>
        )}
      </section>
    </div>
  );
}
