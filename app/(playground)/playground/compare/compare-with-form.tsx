// "Compare with…": a plain GET form to /playground/compare. The other run is given by its
// link or id (the page reads either); no script needed.
export function CompareWithForm({ runId, compact = false }: { runId: string | null; compact?: boolean }) {
  return (
    <form action="/playground/compare" method="get" className="space-y-2 text-sm" data-testid="compare-with">
      {runId ? (
        <input type="hidden" name="a" value={runId} />
      ) : (
        <div className="space-y-1">
          <label htmlFor="compare-a" className="block font-medium">
            First run (link or id)
          </label>
          <input id="compare-a" name="a" required className="w-full rounded-md border border-zinc-300 px-2 py-1 font-mono text-xs dark:border-zinc-700 dark:bg-zinc-900" />
        </div>
      )}
      <div className="space-y-1">
        <label htmlFor={compact ? 'compare-b-side' : 'compare-b'} className={compact ? 'block text-xs text-zinc-700 dark:text-zinc-300' : 'block font-medium'}>
          {runId ? 'Compare with… (another run’s link or id)' : 'Second run (link or id)'}
        </label>
        <div className="flex gap-2">
          <input
            id={compact ? 'compare-b-side' : 'compare-b'}
            name="b"
            required
            data-testid="compare-with-input"
            className="min-w-0 flex-1 rounded-md border border-zinc-300 px-2 py-1 font-mono text-xs dark:border-zinc-700 dark:bg-zinc-900"
          />
          <button
            type="submit"
            data-testid="compare-with-submit"
            className="rounded-md border border-zinc-300 bg-white px-3 py-1 text-xs font-medium hover:bg-zinc-50 dark:border-zinc-700 dark:bg-zinc-900 dark:hover:bg-zinc-800"
          >
            Compare
          </button>
        </div>
      </div>
    </form>
  );
}
