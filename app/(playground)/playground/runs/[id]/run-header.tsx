'use client';
// The sticky bar of a run: status, duration, counts and usage, and the actions (Cancel,
// Share, Fork, Edit and re-run), then the trace tools (errors, tool filter, follow).
import Link from 'next/link';
import { useEffect, useRef, useState, useTransition } from 'react';
import { formatMs, plural, type RunStatus, type TraceState } from '@/lib/trace';
import { forkRunAction } from '../../../_actions/runs';
import { ForkConfirm } from './fork-confirm';
import type { ForkVersions } from './fork-version-choice';
import { formatUsage } from './timeline';
import type { Connection } from './use-run-trace';

export const buttonClass =
  'inline-flex items-center gap-1.5 rounded-lg border border-zinc-300 bg-white px-3 py-1.5 text-sm font-medium text-zinc-800 shadow-sm hover:bg-zinc-50 disabled:opacity-50 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-200 dark:hover:bg-zinc-800';

const STATUS_STYLES: Record<RunStatus, string> = {
  queued: 'bg-zinc-100 text-zinc-800 ring-zinc-300 dark:bg-zinc-800 dark:text-zinc-200 dark:ring-zinc-700',
  running: 'bg-amber-50 text-amber-900 ring-amber-300 dark:bg-amber-950 dark:text-amber-200 dark:ring-amber-800',
  succeeded: 'bg-emerald-50 text-emerald-900 ring-emerald-300 dark:bg-emerald-950 dark:text-emerald-200 dark:ring-emerald-800',
  failed: 'bg-red-50 text-red-800 ring-red-300 dark:bg-red-950 dark:text-red-200 dark:ring-red-800',
  cancelled: 'bg-zinc-100 text-zinc-800 ring-zinc-300 dark:bg-zinc-800 dark:text-zinc-200 dark:ring-zinc-700',
};

// a success that got past a failed call is not a plain green
const RECOVERED_STYLE = 'bg-amber-50 text-amber-950 ring-amber-400 dark:bg-amber-950 dark:text-amber-100 dark:ring-amber-700';

export function StatusBadge({ status, failedCalls = 0 }: { status: RunStatus; failedCalls?: number }) {
  const recovered = status === 'succeeded' && failedCalls > 0;
  return (
    <span
      data-testid="run-status"
      data-status={status}
      data-failed-calls={failedCalls}
      className={`inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs font-medium ring-1 ring-inset ${recovered ? RECOVERED_STYLE : STATUS_STYLES[status]}`}
    >
      {status === 'running' && <span aria-hidden className="h-1.5 w-1.5 rounded-full bg-current motion-safe:animate-pulse" />}
      {recovered ? `succeeded, ${plural(failedCalls, 'call')} failed` : status}
    </span>
  );
}

function Elapsed({ from, to }: { from: string | null; to: string | null }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!from || to) return;
    const t = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(t);
  }, [from, to]);
  if (!from) return null;
  return (
    <span data-testid="run-duration" className="font-mono tabular-nums">
      {formatMs((to ? Date.parse(to) : now) - Date.parse(from))}
    </span>
  );
}

/** Moves focus to the next (or previous) failed call or error note of the trace. */
function useErrorNavigation(onJump: () => void) {
  const [position, setPosition] = useState<{ at: number; of: number } | null>(null);
  const jump = (step: 1 | -1) => {
    const all = [...document.querySelectorAll<HTMLElement>('[data-testid="timeline"] [data-trace-error]')];
    if (all.length === 0) return setPosition({ at: 0, of: 0 });
    const current = position && position.at > 0 ? position.at - 1 : step === 1 ? -1 : 0;
    const next = (current + step + all.length) % all.length;
    onJump();
    all[next].scrollIntoView({ block: 'center' });
    all[next].focus({ preventScroll: true });
    setPosition({ at: next + 1, of: all.length });
  };
  return { position, jump };
}

export function RunHeader({
  runId,
  trace,
  connection,
  canControl,
  tool,
  onTool,
  follow,
  onFollow,
}: {
  runId: string;
  trace: TraceState;
  connection: Connection;
  canControl: boolean;
  tool: string;
  onTool: (tool: string) => void;
  follow: boolean;
  onFollow: (follow: boolean) => void;
}) {
  const [copied, setCopied] = useState(false);
  const [shareUrl, setShareUrl] = useState(`/playground/runs/${runId}`);
  const [actionError, setActionError] = useState<string | null>(null);
  const [cancelling, setCancelling] = useState(false);
  const [forking, startFork] = useTransition();
  const [confirmingFork, setConfirmingFork] = useState(false);
  const shareInput = useRef<HTMLInputElement>(null);
  const ended = trace.status === 'succeeded' || trace.status === 'failed' || trace.status === 'cancelled';
  const errors = useErrorNavigation(() => onFollow(false));
  const tools = Object.entries(trace.tools).filter(([name]) => name !== 'invoke');
  const hasErrors = trace.errorCount > 0 || trace.status === 'failed';

  useEffect(() => setShareUrl(`${window.location.origin}/playground/runs/${runId}`), [runId]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(shareUrl);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      shareInput.current?.select(); // no clipboard permission: let the person copy it
    }
  };

  const cancel = async () => {
    setCancelling(true);
    setActionError(null);
    const res = await fetch(`/api/v1/runs/${runId}/cancel`, { method: 'POST' }).catch(() => null);
    if (!res?.ok) setActionError('Could not cancel the run.');
    setCancelling(false);
  };

  const fork = (versions: ForkVersions) =>
    startFork(async () => {
      setActionError(null);
      const result = await forkRunAction(runId, true, versions); // confirmed by the person; redirects to the fork on success
      if (result?.error) setActionError(result.error);
    });

  return (
    <div
      data-testid="run-header"
      className="sticky top-0 z-20 -mx-4 space-y-2 border-b border-zinc-200 bg-white px-4 py-3 shadow-sm sm:mx-0 sm:rounded-xl sm:border dark:border-zinc-800 dark:bg-zinc-950"
    >
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        <StatusBadge status={trace.status} failedCalls={trace.failedCalls} />
        <span className="text-sm text-zinc-700 dark:text-zinc-300">
          <Elapsed from={trace.startedAt} to={trace.endedAt} />
        </span>
        <span
          className="text-xs text-zinc-600 dark:text-zinc-400"
          data-testid="event-count"
          data-count={trace.count}
          data-last-seq={trace.lastSeq}
          data-duplicates={trace.duplicates}
          data-gaps={trace.gaps}
        >
          {connection === 'connecting' && trace.count === 0 ? (
            'loading events…'
          ) : (
            <>
              {plural(trace.count, 'event')} · {plural(trace.callCount, 'call')}
            </>
          )}
          {trace.errorCount > 0 && <span className="text-red-700 dark:text-red-400"> · {plural(trace.errorCount, 'error')}</span>}
          {connection === 'reconnecting' && <span className="ml-2 text-amber-800 dark:text-amber-300">reconnecting…</span>}
        </span>
        {trace.usage && (
          <span data-testid="run-usage" className="text-xs text-zinc-600 dark:text-zinc-400">
            {formatUsage(trace.usage)}
          </span>
        )}
        {!canControl && (
          <span data-testid="read-only" className="rounded bg-zinc-100 px-2 py-0.5 text-xs text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300">
            read-only
          </span>
        )}
        <div className="flex flex-wrap items-center gap-2 sm:ml-auto">
          {canControl && !ended && (
            <button type="button" data-testid="cancel-run" onClick={() => void cancel()} disabled={cancelling} className={`${buttonClass} text-red-700 dark:text-red-400`}>
              {cancelling ? 'Cancelling…' : 'Cancel'}
            </button>
          )}
          <button type="button" data-testid="copy-share-link" onClick={() => void copy()} className={buttonClass}>
            {copied ? 'Copied ✓' : 'Share'}
          </button>
          <button type="button" data-testid="fork-run" onClick={() => setConfirmingFork(true)} disabled={forking || confirmingFork} className={buttonClass}>
            {forking ? 'Forking…' : 'Fork'}
          </button>
          <Link href={`/playground?from=${runId}`} data-testid="edit-rerun" className={buttonClass}>
            Edit and re-run
          </Link>
        </div>
      </div>
      {confirmingFork && <ForkConfirm runId={runId} busy={forking} onConfirm={fork} onCancel={() => setConfirmingFork(false)} />}
      {(hasErrors || tools.length > 0 || !ended) && (
        <div className="flex flex-wrap items-center gap-2 text-xs" role="toolbar" aria-label="Trace tools">
          {/* error navigation only where there is something to find (a clean run has none) */}
          {hasErrors && (
            <>
              <button type="button" data-testid="prev-error" onClick={() => errors.jump(-1)} className={buttonClass}>
                ↑ Previous error
              </button>
              <button type="button" data-testid="next-error" onClick={() => errors.jump(1)} className={buttonClass}>
                ↓ Next error
              </button>
              <span data-testid="error-position" className="text-zinc-600 dark:text-zinc-400" aria-live="polite">
                {errors.position ? (errors.position.of === 0 ? 'no errors in the trace' : `error ${errors.position.at} of ${errors.position.of}`) : ''}
              </span>
            </>
          )}
          {tools.length > 0 && (
            <span className="inline-flex items-center gap-1.5 sm:ml-auto">
              <label htmlFor="tool-filter" className="text-zinc-700 dark:text-zinc-300">
                Tool
              </label>
              <select
                id="tool-filter"
                data-testid="tool-filter"
                value={tool}
                onChange={(e) => onTool(e.target.value)}
                className="max-w-44 rounded-md border border-zinc-300 bg-white px-1.5 py-1 dark:border-zinc-700 dark:bg-zinc-900"
              >
                <option value="">all tools</option>
                {tools.map(([name, n]) => (
                  <option key={name} value={name}>
                    {name} ({n})
                  </option>
                ))}
              </select>
            </span>
          )}
          {!ended && (
            <label className="inline-flex items-center gap-1 text-zinc-700 dark:text-zinc-300">
              <input type="checkbox" data-testid="follow-live" checked={follow} onChange={(e) => onFollow(e.target.checked)} />
              Follow the live end
            </label>
          )}
        </div>
      )}
      <label className="sr-only" htmlFor="share-link">
        Share link
      </label>
      <input id="share-link" ref={shareInput} data-testid="share-link" readOnly value={shareUrl} className="sr-only" />
      {actionError && (
        <p role="alert" className="w-full text-sm text-red-700 dark:text-red-400">
          {actionError}
        </p>
      )}
    </div>
  );
}
