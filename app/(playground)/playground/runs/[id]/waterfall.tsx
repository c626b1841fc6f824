'use client';
// Where the time went: one bar per turn, placed on the run's clock, each a link to its
// turn in the trace. Capped so a very long run still draws at once.
import { memo } from 'react';
import { formatMs, plural, type Block, type TurnBlock } from '@/lib/trace';

const MAX_ROWS = 300;

export const Waterfall = memo(function Waterfall({ blocks, startedAt, endedAt, now }: { blocks: Block[]; startedAt: string | null; endedAt: string | null; now: number }) {
  const turns = blocks.filter((b): b is TurnBlock => b.kind === 'turn');
  if (!startedAt || turns.length === 0) return null;
  const t0 = Date.parse(startedAt);
  const end = (t: TurnBlock) => (t.endedAt ? Date.parse(t.endedAt) : endedAt ? Date.parse(endedAt) : now);
  const total = Math.max(1, (endedAt ? Date.parse(endedAt) : Math.max(now, ...turns.map(end))) - t0);
  const rows = turns.slice(0, MAX_ROWS);
  return (
    <details data-testid="waterfall" className="rounded-xl border border-zinc-200 p-3 text-xs dark:border-zinc-800">
      <summary className="cursor-pointer font-medium">
        Waterfall: {plural(turns.length, 'turn')} over {formatMs(total)}
      </summary>
      <ol className="mt-2 space-y-0.5" aria-label="Turn durations">
        {rows.map((t) => {
          const start = Date.parse(t.startedAt) - t0;
          const ms = Math.max(0, end(t) - Date.parse(t.startedAt));
          return (
            <li key={t.key} className="grid grid-cols-[3.5rem_1fr_4.5rem] items-center gap-2">
              <a href={`#turn-${t.turnNumber}`} className="text-zinc-700 underline-offset-2 hover:underline dark:text-zinc-300">
                Turn {t.turnNumber}
              </a>
              <span className="relative h-3 rounded-sm bg-zinc-100 dark:bg-zinc-800" aria-hidden>
                <span
                  className={`absolute top-0 h-3 rounded-sm ${t.errorCount > 0 ? 'bg-red-500' : 'bg-emerald-500'}`}
                  style={{ left: `${(start / total) * 100}%`, width: `max(2px, ${(ms / total) * 100}%)` }}
                />
              </span>
              <span className="text-right font-mono text-zinc-700 tabular-nums dark:text-zinc-300">{formatMs(ms)}</span>
            </li>
          );
        })}
      </ol>
      {turns.length > MAX_ROWS && <p className="mt-1 text-zinc-600 dark:text-zinc-400">{plural(turns.length - MAX_ROWS, 'more turn')} not drawn</p>}
    </details>
  );
});
