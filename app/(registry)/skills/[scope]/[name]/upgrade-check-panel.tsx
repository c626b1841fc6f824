'use client';
// For whoever may publish the skill: re-run their (and their teams') recent runs that used
// an earlier version with this one (lib/runs/upgrade-check.ts), then list which runs now
// differ, each with a link to its comparison. The forks run on the workers: the list
// updates until every one has ended.
import Link from 'next/link';
import { useEffect, useState, useTransition } from 'react';
import { readUpgradeCheckAction, startUpgradeCheckAction } from '../../../_actions/upgrade-check';
import type { UpgradeCheck, UpgradeResult } from '@/lib/runs';

const POLL_MS = 1500;

const STATUS: Record<UpgradeResult['status'], { label: string; className: string }> = {
  running: { label: 'running…', className: 'bg-zinc-100 text-zinc-800 dark:bg-zinc-800 dark:text-zinc-200' },
  same: { label: 'same results', className: 'bg-emerald-50 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200' },
  differs: { label: 'differs', className: 'bg-amber-100 text-amber-950 dark:bg-amber-900 dark:text-amber-100' },
};

export function UpgradeCheckPanel({ scope, name, version }: { scope: string; name: string; version: string }) {
  const [check, setCheck] = useState<UpgradeCheck | null>(null);
  const [results, setResults] = useState<UpgradeResult[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [starting, start] = useTransition();

  const pending = !!check && (results.length < check.pairs.length || results.some((r) => r.status === 'running'));
  useEffect(() => {
    if (!check || !pending) return;
    let stop = false;
    const tick = async () => {
      const answer = await readUpgradeCheckAction(check.pairs);
      if (stop) return;
      if (!answer.ok) return setError(answer.error);
      setResults(answer.results);
    };
    const timer = setInterval(() => void tick(), POLL_MS);
    void tick();
    return () => {
      stop = true;
      clearInterval(timer);
    };
  }, [check, pending]);

  const run = () =>
    start(async () => {
      setError(null);
      setResults([]);
      const answer = await startUpgradeCheckAction({ scope, name, version });
      if (!answer.ok) return setError(answer.error);
      setCheck(answer.check);
    });

  const differing = results.filter((r) => r.status === 'differs').length;
  return (
    <section aria-labelledby="upgrade-heading" className="space-y-2 rounded-xl border border-zinc-200 p-4 text-sm dark:border-zinc-800" data-testid="upgrade-check">
      <h2 id="upgrade-heading" className="font-semibold">
        Test {version} on your runs
      </h2>
      <p className="text-xs text-zinc-700 dark:text-zinc-300">
        Re-runs your and your teams&apos; recent scripted and manual runs that used an earlier version, with only this skill moved to {version}, and
        shows which now differ.
      </p>
      <button
        type="button"
        onClick={run}
        disabled={starting || pending}
        data-testid="upgrade-check-start"
        className="rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-xs font-medium hover:bg-zinc-50 disabled:opacity-60 dark:border-zinc-700 dark:bg-zinc-900 dark:hover:bg-zinc-800"
      >
        {starting ? 'Starting…' : pending ? 'Re-running…' : `Re-run my recent runs with ${version}`}
      </button>
      {error && (
        <p role="alert" className="text-xs text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
      {check && (
        <div aria-live="polite" className="space-y-1.5">
          <p className="text-xs" data-testid="upgrade-summary">
            {check.pairs.length === 0
              ? 'No recent run of yours used an earlier version that can be re-run.'
              : pending
                ? `Re-running ${check.pairs.length} ${check.pairs.length === 1 ? 'run' : 'runs'}…`
                : `${differing} of ${check.pairs.length} ${check.pairs.length === 1 ? 'run differs' : 'runs differ'} with ${version}.`}
          </p>
          <ul className="space-y-1">
            {check.pairs.map((p) => {
              const r = results.find((x) => x.fork === p.fork);
              const status = STATUS[r?.status ?? 'running'];
              return (
                <li key={p.fork} className="flex flex-wrap items-center gap-2 text-xs" data-testid="upgrade-result" data-status={r?.status ?? 'running'}>
                  <span className={`rounded px-1.5 py-0.5 font-medium ${status.className}`}>{status.label}</span>
                  <Link href={`/playground/runs/${p.original}`} className="font-mono hover:underline">
                    {p.original.slice(0, 10)}…
                  </Link>
                  <span className="text-zinc-600 dark:text-zinc-400">
                    {p.from} → {version}
                  </span>
                  {r && r.status !== 'running' && (
                    <Link href={`/playground/compare?a=${p.original}&b=${p.fork}`} className="text-emerald-700 hover:underline dark:text-emerald-400" data-testid="upgrade-compare">
                      compare{r.differing ? ` (${r.differing} ${r.differing === 1 ? 'difference' : 'differences'})` : ''}
                    </Link>
                  )}
                </li>
              );
            })}
          </ul>
          {check.skipped.length > 0 && (
            <details className="text-xs text-zinc-700 dark:text-zinc-300">
              <summary className="cursor-pointer">{check.skipped.length} not re-run</summary>
              <ul className="mt-1 space-y-0.5">
                {check.skipped.map((s) => (
                  <li key={s.run}>
                    <span className="font-mono">{s.run.slice(0, 10)}…</span>: {s.reason}
                  </li>
                ))}
              </ul>
            </details>
          )}
        </div>
      )}
    </section>
  );
}
