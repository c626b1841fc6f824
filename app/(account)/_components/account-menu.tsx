// The header's account corner: "Sign in", or the signed-in user with a small menu.
// Self-contained (a server component with a <details> menu, no client JavaScript).
import Link from 'next/link';
import { unstable_rethrow } from 'next/navigation';
import { currentUser } from '@/lib/session';
import { signOutAction } from '../_actions/sign-in';
import { SignInLink } from './sign-in-link';

export async function AccountMenu() {
  let user = null;
  try {
    user = await currentUser();
  } catch (err) {
    unstable_rethrow(err); // Next.js's own signals (a page that reads cookies is dynamic) pass through
    // a broken auth configuration must not take every page down with it
    console.error('[auth] could not read the session:', (err as Error).message);
  }
  if (!user) {
    return <SignInLink className="rounded-lg border border-zinc-300 px-3 py-1.5 text-sm font-medium hover:bg-zinc-50 dark:border-zinc-700 dark:hover:bg-zinc-900" />;
  }
  const label = user.handle ? `@${user.handle}` : (user.name ?? user.email ?? 'Account');
  return (
    <details className="group relative" data-testid="account-menu">
      <summary className="flex cursor-pointer list-none items-center gap-2 rounded-lg px-2 py-1.5 text-sm font-medium hover:bg-zinc-100 dark:hover:bg-zinc-900 [&::-webkit-details-marker]:hidden">
        <span aria-hidden className="grid h-6 w-6 place-items-center rounded-full bg-zinc-200 text-xs uppercase dark:bg-zinc-700">
          {label.replace('@', '').charAt(0)}
        </span>
        <span className="sr-only max-w-[10rem] truncate sm:not-sr-only" data-testid="signed-in-as">
          {label}
        </span>
      </summary>
      <div className="absolute right-0 z-20 mt-1 w-48 rounded-lg border border-zinc-200 bg-white py-1 text-sm shadow-lg dark:border-zinc-800 dark:bg-zinc-950">
        {!user.handle && (
          <Link href="/welcome" className="block px-3 py-2 hover:bg-zinc-100 dark:hover:bg-zinc-900">
            Pick a username
          </Link>
        )}
        <Link href="/runs" className="block px-3 py-2 hover:bg-zinc-100 dark:hover:bg-zinc-900">
          My runs
        </Link>
        <Link href="/settings" className="block px-3 py-2 hover:bg-zinc-100 dark:hover:bg-zinc-900">
          Settings
        </Link>
        <form action={signOutAction}>
          <button type="submit" className="block w-full px-3 py-2 text-left hover:bg-zinc-100 dark:hover:bg-zinc-900">
            Sign out
          </button>
        </form>
      </div>
    </details>
  );
}
