import Link from 'next/link';

/** What a link to a run removed by retention shows: that it existed, and when it went. */
export function RemovedRun({ removedOn }: { removedOn: string | null }) {
  return (
    <div className="mx-auto max-w-xl space-y-3 py-10" data-testid="run-removed">
      <h1 className="text-2xl font-semibold tracking-tight">This run was removed</h1>
      <p className="text-zinc-700 dark:text-zinc-300">
        The run behind this link was removed{removedOn ? ` on ${removedOn}` : ''} under this registry&apos;s retention policy: finished runs are kept for a limited time, and their
        traces for less.
      </p>
      <p>
        <Link href="/playground" className="font-medium text-emerald-700 hover:underline dark:text-emerald-400">
          Start a new run in the playground
        </Link>
      </p>
    </div>
  );
}
