// The header's workspace switcher: the signed-in user's own scope and their teams.
// A server component with a <details> menu (no client JavaScript).
import Link from 'next/link';
import { unstable_rethrow } from 'next/navigation';
import { forSignedInUser } from '@/lib/actions';
import { listUserTeams } from '@/lib/teams';
import { currentUser } from '@/lib/session';

export async function WorkspaceSwitcher() {
  let teams: Awaited<ReturnType<typeof listUserTeams>> | null = null;
  let handle: string | null = null;
  try {
    const user = await currentUser();
    handle = user?.handle ?? null;
    teams = await forSignedInUser((db, actor) => listUserTeams(db, actor.principal.kind === 'user' ? actor.principal.userId : ''));
  } catch (err) {
    unstable_rethrow(err); // Next.js's own signals (a page that reads cookies is dynamic) pass through
    return null; // the header must render even when the database does not answer
  }
  if (!teams) return null;
  return (
    <details className="relative" data-testid="workspace-switcher">
      <summary className="cursor-pointer list-none rounded-lg px-2 py-1.5 text-sm text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-900 [&::-webkit-details-marker]:hidden">
        Teams
      </summary>
      <div className="absolute right-0 z-20 mt-1 w-56 rounded-lg border border-zinc-200 bg-white py-1 text-sm shadow-lg dark:border-zinc-800 dark:bg-zinc-950">
        {handle && (
          <Link href={`/?scope=${handle}`} className="block truncate px-3 py-2 hover:bg-zinc-100 dark:hover:bg-zinc-900">
            @{handle} <span className="text-zinc-500">(you)</span>
          </Link>
        )}
        {teams.map((t) => (
          <Link key={t.slug} href={`/teams/${t.slug}`} className="block truncate px-3 py-2 hover:bg-zinc-100 dark:hover:bg-zinc-900">
            @{t.slug} <span className="text-zinc-500">· {t.role}</span>
          </Link>
        ))}
        <Link href="/teams/new" className="block border-t border-zinc-200 px-3 py-2 font-medium hover:bg-zinc-100 dark:border-zinc-800 dark:hover:bg-zinc-900">
          New team
        </Link>
      </div>
    </details>
  );
}
