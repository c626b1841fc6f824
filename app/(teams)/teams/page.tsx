import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { forSignedInUser } from '@/lib/actions';
import { listUserTeams } from '@/lib/teams';
import { button, muted } from '../_components/styles';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Teams' };

export default async function TeamsPage() {
  const teams = await forSignedInUser((db, actor) => listUserTeams(db, actor.principal.kind === 'user' ? actor.principal.userId : ''));
  if (!teams) redirect('/signin?next=/teams');
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <header className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">Your teams</h1>
        <Link href="/teams/new" className={button}>
          New team
        </Link>
      </header>
      {teams.length === 0 ? (
        <p className={muted}>
          You are in no team yet. A team is a shared scope: private skills only its members see, secrets its tools read, and runs its members share. Create one, or open an
          invitation link someone sent you.
        </p>
      ) : (
        <ul className="divide-y divide-zinc-200 rounded-xl border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800">
          {teams.map((t) => (
            <li key={t.slug}>
              <Link href={`/teams/${t.slug}`} className="flex items-center justify-between gap-3 px-4 py-3 hover:bg-zinc-50 dark:hover:bg-zinc-900">
                <span className="min-w-0 truncate">
                  <span className="font-medium">{t.name}</span> <span className="text-zinc-500">@{t.slug}</span>
                </span>
                <span className="text-sm text-zinc-600 dark:text-zinc-400">{t.role}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
