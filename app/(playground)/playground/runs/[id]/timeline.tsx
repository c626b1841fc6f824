'use client';
// The rendering of timeline blocks. Each block and call is memoised on its `rev`, so a
// new event re-renders only the turn (and call) it touched.
import { memo } from 'react';
import { plural, type Block, type TurnBlock, type Usage } from '@/lib/trace';
import { CodeCall, Duration, InvokeCall } from './call-views';
import { NoteView } from './note-view';

export { formatMs } from '@/lib/trace';

const between = (a?: string | null, b?: string | null) => (a && b ? Date.parse(b) - Date.parse(a) : undefined);

export function formatUsage(u: Usage): string {
  const cost = u.costUsd !== undefined ? ` · $${u.costUsd.toFixed(u.costUsd < 0.01 ? 4 : 2)}` : '';
  return `${u.inputTokens.toLocaleString('en-US')} in / ${u.outputTokens.toLocaleString('en-US')} out tokens${cost}`;
}

function TurnState({ turn }: { turn: TurnBlock }) {
  if (turn.interrupted) {
    return (
      <span data-testid="turn-interrupted" className="rounded bg-zinc-100 px-1.5 text-xs text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300">
        {turn.interrupted === 'cancelled' ? 'cancelled before it ended' : 'stopped: the run failed'}
      </span>
    );
  }
  if (!turn.end) return <span className="text-xs text-amber-800 dark:text-amber-300">in progress…</span>;
  return <Duration ms={between(turn.startedAt, turn.endedAt)} />;
}

const TurnView = memo(
  function TurnView({ turn, tool }: { turn: TurnBlock; rev: number; tool: string }) {
    return (
      <li
        id={`turn-${turn.turnNumber}`}
        data-testid="trace-item"
        data-type="turn"
        data-turn={turn.turnNumber}
        data-seqs={turn.seqs.join(',')}
        className="min-w-0 scroll-mt-28 space-y-3 rounded-xl border border-zinc-200 p-4 [contain-intrinsic-size:auto_240px] [content-visibility:auto] dark:border-zinc-800"
      >
        <header className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <span className="grid h-6 min-w-6 place-items-center rounded-full bg-zinc-900 px-1.5 text-xs font-semibold text-white dark:bg-zinc-100 dark:text-zinc-900">
            {turn.turnNumber}
          </span>
          <h3 className="text-sm font-semibold">Turn {turn.turnNumber}</h3>
          <TurnState turn={turn} />
          {turn.end?.finished && <span className="rounded bg-emerald-100 px-1.5 text-xs text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300">finished</span>}
          {turn.callCount > 1 && (
            <span data-testid="turn-counts" className="text-xs text-zinc-600 dark:text-zinc-400">
              {plural(turn.callCount, 'call')}
              {turn.errorCount > 0 && <span className="text-red-700 dark:text-red-400">, {plural(turn.errorCount, 'error')}</span>}
            </span>
          )}
          {turn.usage && (
            <span data-testid="turn-usage" className="text-xs text-zinc-600 dark:text-zinc-400">
              {formatUsage(turn.usage)}
            </span>
          )}
        </header>
        {turn.reasoning && (
          <details className="text-sm text-zinc-600 dark:text-zinc-400">
            <summary className="cursor-pointer">Reasoning</summary>
            <p className="mt-1 whitespace-pre-wrap">{turn.reasoning}</p>
          </details>
        )}
        {turn.text && (
          <p data-testid="turn-text" className="text-sm leading-6 break-words whitespace-pre-wrap">
            {turn.text}
          </p>
        )}
        {turn.items.map((c) =>
          c.kind === 'note' ? (
            <ul key={c.key}>
              <NoteView note={c} rev={c.rev} />
            </ul>
          ) : c.via === 'model' ? (
            <InvokeCall key={c.key} node={c} rev={c.rev} tool={tool} />
          ) : (
            <ul key={c.key}>
              <CodeCall node={c} rev={c.rev} />
            </ul>
          ),
        )}
      </li>
    );
  },
  (a, b) => a.turn === b.turn && a.rev === b.rev && a.tool === b.tool,
);

/** `tool`: show only the turns and calls of this tool ('' = everything). */
export function Timeline({ blocks, tool = '' }: { blocks: Block[]; tool?: string }) {
  return (
    <ol data-testid="timeline" className="space-y-3" aria-label="Run trace">
      {blocks.map((b) =>
        b.kind === 'turn' ? !tool || b.tools[tool] ? <TurnView key={b.key} turn={b} rev={b.rev} tool={tool} /> : null : <NoteView key={b.key} note={b} rev={b.rev} />,
      )}
    </ol>
  );
}
