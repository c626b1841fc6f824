import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { currentUser } from '@/lib/session';
import { safeLocalPath, suggestUsername } from '@/lib/auth';
import { UsernameForm } from './username-form';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Welcome' };

export default async function WelcomePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const next = safeLocalPath(params.next);
  const user = await currentUser();
  if (!user) redirect(`/signin?next=${encodeURIComponent(next)}`);
  if (user.handle) redirect(next);
  return (
    <div className="mx-auto max-w-md space-y-6 py-8">
      <header className="space-y-2">
        <h1 className="text-2xl font-semibold tracking-tight">Pick a username</h1>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          It is also your package scope: what you publish is <code>@username/skill-name</code>. It cannot be changed later.
        </p>
      </header>
      <UsernameForm next={next} suggestion={suggestUsername(user.name ?? user.email)} />
    </div>
  );
}
