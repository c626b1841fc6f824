import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { currentUser } from '@/lib/session';
import { serverContext } from '@/lib/server';
import { listUserRuns } from '@/lib/runs';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'My runs' };

const STATUS: Record<string, string> = {
  queued: 'bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300',
  running: 'bg-sky-100 text-sky-800 dark:bg-sky-950 dark:text-sky-300',
  succeeded: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300',
  failed: 'bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-300',
  cancelled: 'bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-300',
};

export default async function MyRunsPage() {
  const user = await currentUser();
  if (!user) redirect('/signin?next=/runs');
  const runs = await listUserRuns(serverContext().db, user.id);
  return (
    <div className="space-y-6">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div className="space-y-1">
          <h1 className="text-2xl font-semibold tracking-tight">My runs</h1>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">Runs you started or forked, newest first. They run with your tokens.</p>
        </div>
        <Link href="/playground" className="rounded-lg bg-emerald-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-emerald-800">
          New run
        </Link>
      </header>
      {runs.length === 0 ? (
        <p className="text-zinc-600 dark:text-zinc-400" data-testid="no-runs">
          No runs yet. Start one in the{' '}
          <Link href="/playground" className="underline">
            playground
          </Link>
          .
        </p>
      ) : (
        <ul className="divide-y divide-zinc-200 rounded-xl border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800" data-testid="my-runs">
          {runs.map((r) => (
            <li key={r.id}>
              <Link href={`/playground/runs/${r.id}`} className="grid gap-1 p-4 hover:bg-zinc-50 sm:grid-cols-[7rem_1fr_auto] sm:items-center sm:gap-4 dark:hover:bg-zinc-900">
                <span className={`w-fit rounded px-2 py-0.5 text-xs font-medium ${STATUS[r.status] ?? STATUS.queued}`}>{r.status}</span>
                <span className="min-w-0">
                  <span className="block truncate text-sm">{r.task || <em className="text-zinc-500">no task</em>}</span>
                  <span className="block truncate text-xs text-zinc-500">
                    {r.skills.join(', ')} · {r.provider} · {r.visibility}
                    {r.forkedFromId ? ' · fork' : ''}
                  </span>
                </span>
                <time dateTime={r.createdAt.toISOString()} className="text-xs text-zinc-500">
                  {r.createdAt.toISOString().slice(0, 16).replace('T', ' ')} UTC
                </time>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
