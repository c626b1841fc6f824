'use client';
// A run, live: subscribes to its Server-Sent Events (EventSource resumes after
// Last-Event-ID on its own), folds events into the trace once per animation frame, and
// offers the controls the viewer may use.
import { useEffect, useRef, useState, useTransition } from 'react';
import { forkRunAction } from '../../actions';
import { Timeline, formatMs } from './timeline';
import { TraceBuilder, isTerminal, type RunEvent, type RunStatus, type TraceState } from './trace-model';

type Connection = 'connecting' | 'live' | 'reconnecting' | 'closed';

const STATUS_STYLES: Record<RunStatus, string> = {
  queued: 'bg-zinc-100 text-zinc-700 ring-zinc-300 dark:bg-zinc-800 dark:text-zinc-300 dark:ring-zinc-700',
  running: 'bg-amber-50 text-amber-800 ring-amber-300 dark:bg-amber-950 dark:text-amber-300 dark:ring-amber-800',
  succeeded: 'bg-emerald-50 text-emerald-800 ring-emerald-300 dark:bg-emerald-950 dark:text-emerald-300 dark:ring-emerald-800',
  failed: 'bg-red-50 text-red-800 ring-red-300 dark:bg-red-950 dark:text-red-300 dark:ring-red-800',
  cancelled: 'bg-zinc-100 text-zinc-600 ring-zinc-300 dark:bg-zinc-800 dark:text-zinc-400 dark:ring-zinc-700',
};

export function StatusBadge({ status }: { status: RunStatus }) {
  return (
    <span
      data-testid="run-status"
      data-status={status}
      className={`inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs font-medium ring-1 ring-inset ${STATUS_STYLES[status]}`}
    >
      {status === 'running' && <span aria-hidden className="h-1.5 w-1.5 animate-pulse rounded-full bg-current" />}
      {status}
    </span>
  );
}

function useRunTrace(runId: string, initialStatus: RunStatus) {
  const [trace, setTrace] = useState<TraceState>(() => new TraceBuilder(initialStatus).snapshot());
  const [connection, setConnection] = useState<Connection>('connecting');

  useEffect(() => {
    const builder = new TraceBuilder(initialStatus);
    const queue: RunEvent[] = [];
    let frame = 0;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const flush = () => {
      cancelAnimationFrame(frame);
      if (timer) clearTimeout(timer);
      frame = 0;
      timer = null;
      if (queue.length === 0) return;
      for (const event of queue.splice(0)) builder.apply(event);
      setTrace(builder.snapshot());
    };
    // one state update per frame however many events arrived; the timer covers hidden tabs
    const schedule = () => {
      if (frame || timer) return;
      frame = requestAnimationFrame(flush);
      timer = setTimeout(flush, 250);
    };
    const source = new EventSource(`/api/v1/runs/${runId}/events`);
    source.onopen = () => setConnection('live');
    source.onmessage = (m) => {
      try {
        const event = JSON.parse(m.data) as RunEvent;
        // the SSE id is the run's sequence number (what a reconnect resumes after)
        const id = Number(m.lastEventId);
        queue.push(Number.isInteger(id) && id > 0 ? { ...event, seq: id } : event);
        schedule();
      } catch {
        // a malformed frame is skipped; the seq check will show the gap
      }
    };
    source.addEventListener('end', () => {
      source.close();
      flush();
      setConnection('closed');
    });
    source.onerror = () => setConnection(source.readyState === EventSource.CLOSED ? 'closed' : 'reconnecting');
    return () => {
      source.close();
      cancelAnimationFrame(frame);
      if (timer) clearTimeout(timer);
    };
  }, [runId, initialStatus]);

  return { trace, connection };
}

function Elapsed({ from, to }: { from: string | null; to: string | null }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!from || to) return;
    const t = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(t);
  }, [from, to]);
  if (!from) return null;
  return <span className="font-mono tabular-nums">{formatMs((to ? Date.parse(to) : now) - Date.parse(from))}</span>;
}

const buttonClass =
  'inline-flex items-center gap-1.5 rounded-lg border border-zinc-300 bg-white px-3 py-1.5 text-sm font-medium text-zinc-800 shadow-sm hover:bg-zinc-50 disabled:opacity-50 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-200 dark:hover:bg-zinc-800';

function ManualTurn({ runId, turnNumber }: { runId: string; turnNumber: number }) {
  const [code, setCode] = useState('');
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const send = async (turn: unknown) => {
    setSending(true);
    setError(null);
    try {
      const res = await fetch(`/api/v1/runs/${runId}/turns`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ turn }),
      });
      if (!res.ok) {
        const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
        setError(body?.error?.message ?? `The server answered ${res.status}.`);
        setSending(false);
      }
      // on success the form goes away when the turn's first event arrives
    } catch {
      setError('Could not reach the server.');
      setSending(false);
    }
  };

  return (
    <section data-testid="manual-turn" aria-labelledby="manual-heading" className="space-y-3 rounded-xl border-2 border-amber-300 bg-amber-50/50 p-4 dark:border-amber-800 dark:bg-amber-950/20">
      <h2 id="manual-heading" className="text-sm font-semibold">
        Your turn {turnNumber}: write the agent&apos;s code
      </h2>
      <div>
        <label htmlFor="manual-text" className="mb-1 block text-xs font-medium text-zinc-600 dark:text-zinc-400">
          Message (optional)
        </label>
        <input
          id="manual-text"
          data-testid="manual-text"
          value={text}
          onChange={(e) => setText(e.target.value)}
          className="w-full rounded-lg border border-zinc-300 bg-white px-3 py-1.5 text-sm dark:border-zinc-700 dark:bg-zinc-900"
        />
      </div>
      <div>
        <label htmlFor="manual-code" className="mb-1 block text-xs font-medium text-zinc-600 dark:text-zinc-400">
          Code (runs in the sandbox with <code className="font-mono">ctx</code> and <code className="font-mono">memory</code>)
        </label>
        <textarea
          id="manual-code"
          data-testid="manual-code"
          rows={8}
          spellCheck={false}
          value={code}
          placeholder={"const r = await ctx.invoke('tool-name', { /* args */ });\nreturn r;"}
          onChange={(e) => setCode(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.metaKey || e.ctrlKey) && code.trim()) void send(text ? { text, code } : code);
          }}
          className="w-full rounded-lg border border-zinc-300 bg-white px-3 py-2 font-mono text-xs leading-5 dark:border-zinc-700 dark:bg-zinc-900"
        />
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <button
          type="button"
          data-testid="run-turn"
          disabled={sending || !code.trim()}
          onClick={() => void send(text ? { text, code } : code)}
          className="rounded-lg bg-emerald-600 px-4 py-1.5 text-sm font-medium text-white hover:bg-emerald-700 disabled:opacity-50"
        >
          {sending ? 'Running…' : 'Run turn'}
        </button>
        <button type="button" data-testid="end-turns" disabled={sending} onClick={() => void send(text ? { text } : null)} className={buttonClass}>
          {text ? 'Reply without code (ends the run)' : 'End the run'}
        </button>
        <span className="text-xs text-zinc-500">Ctrl+Enter runs the turn</span>
      </div>
      {error && (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
    </section>
  );
}

export function RunView({
  runId,
  initialStatus,
  canControl,
  manual,
}: {
  runId: string;
  initialStatus: RunStatus;
  canControl: boolean;
  manual: boolean;
}) {
  const { trace, connection } = useRunTrace(runId, initialStatus);
  const [copied, setCopied] = useState(false);
  const [shareUrl, setShareUrl] = useState(`/playground/runs/${runId}`);
  const [actionError, setActionError] = useState<string | null>(null);
  const [cancelling, setCancelling] = useState(false);
  const [forking, startFork] = useTransition();
  const shareInput = useRef<HTMLInputElement>(null);
  const ended = isTerminal(trace.status);

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

  const fork = () =>
    startFork(async () => {
      setActionError(null);
      const result = await forkRunAction(runId); // redirects to the fork on success
      if (result?.error) setActionError(result.error);
    });

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-3 rounded-xl border border-zinc-200 px-4 py-3 dark:border-zinc-800">
        <StatusBadge status={trace.status} />
        <span className="text-sm text-zinc-600 dark:text-zinc-400">
          <Elapsed from={trace.startedAt} to={trace.endedAt} />
        </span>
        <span
          className="text-xs text-zinc-500"
          data-testid="event-count"
          data-count={trace.count}
          data-last-seq={trace.lastSeq}
          data-duplicates={trace.duplicates}
          data-gaps={trace.gaps}
        >
          {trace.count} events
          {connection === 'reconnecting' && <span className="ml-2 text-amber-600">reconnecting…</span>}
        </span>
        {!canControl && (
          <span data-testid="read-only" className="rounded bg-zinc-100 px-2 py-0.5 text-xs text-zinc-600 dark:bg-zinc-800 dark:text-zinc-400">
            read-only
          </span>
        )}
        <div className="ml-auto flex flex-wrap items-center gap-2">
          {canControl && !ended && (
            <button type="button" data-testid="cancel-run" onClick={() => void cancel()} disabled={cancelling} className={`${buttonClass} text-red-700 dark:text-red-400`}>
              {cancelling ? 'Cancelling…' : 'Cancel'}
            </button>
          )}
          <button type="button" data-testid="copy-share-link" onClick={() => void copy()} className={buttonClass}>
            {copied ? 'Copied ✓' : 'Copy share link'}
          </button>
          <button type="button" data-testid="fork-run" onClick={fork} disabled={forking} className={buttonClass}>
            {forking ? 'Forking…' : 'Fork'}
          </button>
        </div>
        <label className="sr-only" htmlFor="share-link">
          Share link
        </label>
        <input
          id="share-link"
          ref={shareInput}
          data-testid="share-link"
          readOnly
          value={shareUrl}
          className="w-full rounded-md border border-zinc-200 bg-zinc-50 px-2 py-1 font-mono text-xs text-zinc-600 dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-400"
        />
        {actionError && (
          <p role="alert" className="w-full text-sm text-red-600 dark:text-red-400">
            {actionError}
          </p>
        )}
      </div>

      {trace.blocks.length === 0 && (
        <p data-testid="timeline-empty" className="rounded-xl border border-dashed border-zinc-300 p-6 text-center text-sm text-zinc-500 dark:border-zinc-700">
          {ended ? 'This run recorded no events.' : trace.status === 'queued' ? 'Queued: waiting for a worker…' : 'Waiting for the first event…'}
        </p>
      )}
      <Timeline blocks={trace.blocks} />

      {manual && canControl && !ended && trace.awaitingTurn !== null && <ManualTurn key={trace.awaitingTurn} runId={runId} turnNumber={trace.awaitingTurn} />}
    </div>
  );
}
