// /playground/compare?a=<run>&b=<run>: two runs the viewer may see, side by side (issue 31).
// Each run is read with the viewer's own access (lib/runs/compare-runs.ts); a run they may
// not see is a 404, exactly as its own link would be.
import type { Metadata } from 'next';
import { cookies } from 'next/headers';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { serverContext } from '@/lib/server';
import { isAppError } from '@/lib/errors';
import { runCookieName } from '@/lib/api';
import { currentUser } from '@/lib/session';
import { compareRuns, type RunComparison, type RunView } from '@/lib/runs';
import { CompareRows } from './compare-rows';
import { CompareReady } from './compare-ready';
import { CompareWithForm } from './compare-with-form';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Compare runs', robots: { index: false } };

type Search = { a?: string | string[]; b?: string | string[] };

/** A run id from a query value: the id itself or a pasted run link. */
function runIdFrom(value: string | string[] | undefined): string | null {
  const text = (Array.isArray(value) ? value[0] : value)?.trim() ?? '';
  const m = /([0-9a-f]{32}(?:[0-9a-f]{32})?)\/?(?:[?#].*)?$/.exec(text);
  return m ? m[1] : null;
}

function RunCard({ side, run }: { side: 'A' | 'B'; run: RunView }) {
  const pins = run.pins?.skills.map((s) => `${s.ref}@${s.version}`).join(', ') ?? run.config.skills.join(', ');
  return (
    <div className="min-w-0 rounded-xl border border-zinc-200 p-3 text-sm dark:border-zinc-800" data-testid={`compare-run-${side.toLowerCase()}`}>
      <p className="text-xs font-semibold text-zinc-600 dark:text-zinc-400">Run {side}</p>
      <p className="font-medium break-words">{run.config.task.length > 120 ? `${run.config.task.slice(0, 119)}…` : run.config.task}</p>
      <p className="text-xs text-zinc-700 dark:text-zinc-300">
        <span data-testid="compare-status">{run.status}</span> · {run.config.provider} · <span className="font-mono">{pins}</span>
      </p>
      <Link href={`/playground/runs/${run.id}`} className="font-mono text-xs text-emerald-700 hover:underline dark:text-emerald-400">
        {run.id}
      </Link>
    </div>
  );
}

function Summary({ c }: { c: RunComparison }) {
  const changes = [
    ...c.versions.map((v) => ({ what: v.ref, a: v.a ?? '—', b: v.b ?? '—', note: v.tools.length ? `schema changed: ${v.tools.join(', ')}` : '' })),
    ...c.settings.map((s) => ({ ...s, note: '' })),
    ...(c.outcome.status ? [{ what: 'status', a: c.a.status, b: c.b.status, note: '' }] : []),
    ...(c.outcome.result ? [{ what: 'result', a: JSON.stringify(c.a.result ?? null).slice(0, 200), b: JSON.stringify(c.b.result ?? null).slice(0, 200), note: '' }] : []),
    ...(c.outcome.error ? [{ what: 'error', a: c.a.error?.code ?? '—', b: c.b.error?.code ?? '—', note: '' }] : []),
  ];
  return (
    <section aria-labelledby="compare-summary" className="space-y-2">
      <h2 id="compare-summary" className="text-lg font-semibold" data-testid="compare-verdict" data-differs={c.differs} data-differing={c.trace.differing}>
        {c.differs
          ? `${c.trace.differing} of ${c.trace.rows.length} ${c.trace.rows.length === 1 ? 'row differs' : 'rows differ'}${c.outcome.result || c.outcome.status ? ', and the outcome' : ''}`
          : `Same calls and results (${c.trace.calls} ${c.trace.calls === 1 ? 'call' : 'calls'})`}
      </h2>
      {changes.length > 0 && (
        // a narrow screen scrolls the table: the region takes focus so a keyboard can too
        <div className="overflow-x-auto" tabIndex={0} role="region" aria-label="What differs besides the calls">
          <table className="w-full text-left text-xs" data-testid="compare-changes">
            <thead>
              <tr className="text-zinc-600 dark:text-zinc-400">
                <th scope="col" className="py-1 pr-3 font-medium">
                  What
                </th>
                <th scope="col" className="py-1 pr-3 font-medium">
                  A
                </th>
                <th scope="col" className="py-1 pr-3 font-medium">
                  B
                </th>
              </tr>
            </thead>
            <tbody>
              {changes.map((ch) => (
                <tr key={ch.what} className="border-t border-zinc-100 align-top dark:border-zinc-900">
                  <th scope="row" className="py-1 pr-3 font-mono font-normal">
                    {ch.what}
                  </th>
                  <td className="py-1 pr-3 font-mono break-all">{ch.a}</td>
                  <td className="py-1 pr-3 font-mono break-all">
                    {ch.b}
                    {ch.note && <span className="block font-sans text-zinc-600 dark:text-zinc-400">{ch.note}</span>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {c.truncated.length > 0 && (
        <p className="text-xs text-amber-900 dark:text-amber-200">Long trace: compared over its first 20,000 events (run {c.truncated.join(' and ').toUpperCase()}).</p>
      )}
      {c.traceRemoved.length > 0 && (
        <p className="text-xs text-amber-900 dark:text-amber-200">
          The trace of run {c.traceRemoved.join(' and ').toUpperCase()} was removed by retention: only the outcomes and versions compare.
        </p>
      )}
    </section>
  );
}

export default async function ComparePage({ searchParams }: { searchParams: Promise<Search> }) {
  const search = await searchParams;
  const a = runIdFrom(search.a);
  const b = runIdFrom(search.b);
  const heading = (
    <header className="space-y-1">
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        <Link href="/playground" className="hover:underline">
          Playground
        </Link>{' '}
        / compare
      </p>
      <h1 className="text-2xl font-semibold tracking-tight">Compare runs</h1>
    </header>
  );
  if (!a || !b || a === b) {
    return (
      <div className="mx-auto max-w-2xl space-y-4">
        {heading}
        {a && a === b && (
          <p role="alert" className="text-sm text-red-700 dark:text-red-400">
            Choose two different runs to compare.
          </p>
        )}
        <CompareWithForm runId={a} />
      </div>
    );
  }
  const jar = await cookies();
  const user = await currentUser().catch(() => null);
  let c: RunComparison;
  try {
    c = await compareRuns(serverContext().db, a, b, (id) => ({ userId: user?.id ?? null, controlToken: jar.get(runCookieName(id))?.value ?? null }));
  } catch (err) {
    if (isAppError(err) && (err.status === 404 || err.code === 'run/removed')) notFound();
    throw err;
  }
  return (
    <div className="space-y-5" data-testid="compare-view">
      {heading}
      <div className="grid grid-cols-1 gap-3 md:grid-cols-2">
        <RunCard side="A" run={c.a} />
        <RunCard side="B" run={c.b} />
      </div>
      <p className="text-xs text-zinc-600 dark:text-zinc-400">
        <Link href={`/playground/compare?a=${c.b.id}&b=${c.a.id}`} className="text-emerald-700 underline dark:text-emerald-400" data-testid="compare-swap">
          Swap A and B
        </Link>{' '}
        · times count as different past {250} ms and twice as long; they never make runs differ
      </p>
      <Summary c={c} />
      <section aria-label="Turns and calls" className="space-y-2">
        <div className="hidden grid-cols-2 gap-3 text-xs font-semibold text-zinc-600 md:grid dark:text-zinc-400" aria-hidden>
          <span>Run A</span>
          <span>Run B</span>
        </div>
        <CompareRows rows={c.trace.rows} />
      </section>
      <CompareReady />
    </div>
  );
}
