// "Compare with parent" on a fork, "Compare with…" on any run: both open /playground/compare.
import Link from 'next/link';
import { CompareWithForm } from '../../compare/compare-with-form';

export function RunCompareLinks({ runId, parentId }: { runId: string; parentId: string | null }) {
  return (
    <section className="space-y-2 rounded-xl border border-zinc-200 p-4 text-sm dark:border-zinc-800" aria-labelledby="compare-heading" data-testid="run-compare">
      <h2 id="compare-heading" className="font-semibold">
        Compare
      </h2>
      {parentId && (
        <Link
          href={`/playground/compare?a=${parentId}&b=${runId}`}
          data-testid="compare-parent"
          className="inline-block rounded-md border border-zinc-300 bg-white px-3 py-1 text-xs font-medium hover:bg-zinc-50 dark:border-zinc-700 dark:bg-zinc-900 dark:hover:bg-zinc-800"
        >
          Compare with parent
        </Link>
      )}
      <CompareWithForm runId={runId} compact />
    </section>
  );
}
