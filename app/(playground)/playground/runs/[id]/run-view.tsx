'use client';
// A run, live: the sticky header, the outcome, the waterfall, the trace, and for a
// manual run the owner's editor. Follows the live end until the reader scrolls away.
import { useEffect, useRef, useState } from 'react';
import { isTerminal, plural, type RunStatus } from '@/lib/trace';
import { ManualTurn, type ManualTool } from './manual-turn';
import { RunHeader } from './run-header';
import { RunOutcomePanel } from './run-outcome-panel';
import { Timeline } from './timeline';
import { useRunTrace } from './use-run-trace';
import { Waterfall } from './waterfall';

const NEAR_BOTTOM_PX = 160;

function useFollowLiveEnd(active: boolean, changed: number) {
  const [follow, setFollow] = useState(true);
  const programmatic = useRef(false);
  useEffect(() => {
    const onScroll = () => {
      if (programmatic.current) {
        programmatic.current = false;
        return;
      }
      const atBottom = window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - NEAR_BOTTOM_PX;
      setFollow(atBottom);
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);
  useEffect(() => {
    if (!active || !follow) return;
    const bottom = document.documentElement.scrollHeight - window.innerHeight;
    if (window.scrollY < bottom - 2) {
      programmatic.current = true;
      window.scrollTo({ top: bottom });
    }
  }, [active, follow, changed]);
  return [follow, setFollow] as const;
}

export function RunView({
  runId,
  initialStatus,
  canControl,
  manual,
  tools,
  storedError,
}: {
  runId: string;
  initialStatus: RunStatus;
  canControl: boolean;
  manual: boolean;
  tools: ManualTool[];
  storedError: { code: string; message: string } | null;
}) {
  const { trace, connection } = useRunTrace(runId, initialStatus);
  const [tool, setTool] = useState('');
  const ended = isTerminal(trace.status);
  const [follow, setFollow] = useFollowLiveEnd(!ended, trace.count);
  const [now, setNow] = useState(() => Date.now());
  // the clock only matters while the run goes (the waterfall's open end): a finished run is not drawn twice
  useEffect(() => {
    if (!ended) setNow(Date.now());
  }, [trace.count, ended]);
  const turns = trace.blocks.reduce((n, b) => (b.kind === 'turn' ? n + 1 : n), 0);

  return (
    <div className="space-y-4">
      <RunHeader runId={runId} trace={trace} connection={connection} canControl={canControl} tool={tool} onTool={setTool} follow={follow} onFollow={setFollow} />
      {/* what a screen reader hears as the run goes: its status, its turns and errors */}
      <p className="sr-only" role="status" aria-live="polite" data-testid="run-live">
        {`Run ${trace.status}: ${plural(turns, 'turn')}${trace.errorCount ? `, ${plural(trace.errorCount, 'error')}` : ''}.`}
      </p>
      <RunOutcomePanel trace={trace} storedError={storedError} />
      <Waterfall blocks={trace.blocks} startedAt={trace.startedAt} endedAt={trace.endedAt} now={now} />

      {trace.blocks.length === 0 && (
        <p data-testid="timeline-empty" className="rounded-xl border border-dashed border-zinc-300 p-6 text-center text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400">
          {/* a finished run's trace still streams in after the page loads: say so, never "no events" before the stream ended */}
          {ended
            ? connection === 'closed'
              ? 'This run recorded no events.'
              : 'Loading the trace…'
            : trace.status === 'queued'
              ? 'Queued: waiting for a worker…'
              : 'Waiting for the first event…'}
        </p>
      )}
      <Timeline blocks={trace.blocks} tool={tool} />

      {manual && canControl && !ended && trace.awaitingTurn !== null && <ManualTurn key={trace.awaitingTurn} runId={runId} turnNumber={trace.awaitingTurn} tools={tools} />}
    </div>
  );
}
