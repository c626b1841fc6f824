// The aligned rows of a comparison: each turn and call with run A on the left and run B on
// the right (stacked, A then B, on a phone), what differs marked on the row, and stretches
// that are the same on both sides folded into one line that opens. Server-rendered.
import { foldIdentical, type CallRow, type CompareRow, type FlatCall, type TurnRow, formatMs } from '@/lib/trace';

const MARK_LABELS: Record<string, string> = {
  missing: 'only in one run',
  tool: 'another tool',
  args: 'arguments differ',
  result: 'result differs',
  error: 'error differs',
  timing: 'timing differs',
  text: 'message differs',
  tokens: 'tokens differ',
};

/** folded rows shown when a fold opens, at most (the count says how many there are) */
const FOLD_PREVIEW = 12;

function preview(value: unknown, n = 160): string {
  if (value === undefined) return '';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > n ? `${text.slice(0, n - 1)}…` : text;
}

function Marks({ marks }: { marks: string[] }) {
  if (marks.length === 0) return null;
  return (
    <ul className="flex flex-wrap gap-1" aria-label="Differences">
      {marks.map((m) => (
        <li
          key={m}
          data-mark={m}
          className={`rounded px-1.5 py-0.5 text-xs font-medium ${m === 'timing' || m === 'tokens' ? 'bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-200' : 'bg-amber-100 text-amber-950 dark:bg-amber-900 dark:text-amber-100'}`}
        >
          {MARK_LABELS[m] ?? m}
        </li>
      ))}
    </ul>
  );
}

function Field({ label, value, changed }: { label: string; value: unknown; changed: boolean }) {
  if (value === undefined) return null;
  return (
    <div className={changed ? 'rounded bg-amber-50 px-1 dark:bg-amber-950' : undefined}>
      <span className="text-zinc-600 dark:text-zinc-400">{label} </span>
      <code className="font-mono break-all">{preview(value, 600)}</code>
    </div>
  );
}

function CallCell({ side, call, marks }: { side: 'A' | 'B'; call: FlatCall | null; marks: string[] }) {
  if (!call) {
    return (
      <div className="min-w-0 rounded-md border border-dashed border-zinc-300 p-2 text-xs text-zinc-600 dark:border-zinc-700 dark:text-zinc-400" data-side={side}>
        <span className="font-semibold md:hidden">{side}: </span>no such call in run {side}
      </div>
    );
  }
  return (
    <div
      className="min-w-0 space-y-0.5 rounded-md border border-zinc-200 p-2 text-xs dark:border-zinc-800"
      data-side={side}
      style={{ marginLeft: `${Math.min(call.depth, 3) * 0.75}rem` }}
    >
      <div className="flex flex-wrap items-baseline gap-x-2">
        <span className="font-semibold md:hidden">{side}</span>
        <span className="font-mono font-medium">{call.tool}</span>
        <span className={call.status === 'error' ? 'text-red-700 dark:text-red-400' : 'text-zinc-600 dark:text-zinc-400'}>{call.status}</span>
        {call.durationMs !== undefined && (
          <span className={`tabular-nums ${marks.includes('timing') ? 'font-semibold text-sky-800 dark:text-sky-300' : 'text-zinc-600 dark:text-zinc-400'}`}>
            {formatMs(call.durationMs)}
          </span>
        )}
      </div>
      <Field label="args" value={call.args} changed={marks.includes('args')} />
      {call.error ? (
        <Field label="error" value={`${call.error.code}: ${call.error.message}`} changed={marks.includes('error')} />
      ) : (
        <Field label="result" value={call.result} changed={marks.includes('result')} />
      )}
    </div>
  );
}

function TurnCell({ side, turn, marks }: { side: 'A' | 'B'; turn: TurnRow['a']; marks: string[] }) {
  return (
    <div className="min-w-0 text-xs" data-side={side}>
      <span className="font-semibold md:hidden">{side}: </span>
      {!turn ? (
        <span className="text-zinc-600 dark:text-zinc-400">no such turn in run {side}</span>
      ) : (
        <>
          <span className={marks.includes('text') ? 'rounded bg-amber-50 px-1 dark:bg-amber-950' : 'text-zinc-700 dark:text-zinc-300'}>
            {preview(turn.text, 300) || '(no message)'}
          </span>
          {turn.usage && (
            <span className={`ml-2 tabular-nums ${marks.includes('tokens') ? 'font-semibold text-sky-800 dark:text-sky-300' : 'text-zinc-600 dark:text-zinc-400'}`}>
              {turn.usage.inputTokens}+{turn.usage.outputTokens} tokens
            </span>
          )}
        </>
      )}
    </div>
  );
}

function Row({ row }: { row: CompareRow }) {
  const marked = row.marks.length > 0;
  const turn = row.kind === 'turn';
  return (
    <li
      data-testid={turn ? 'compare-turn' : 'compare-call'}
      data-differs={marked ? row.marks.join(' ') : undefined}
      className={`space-y-1 py-1.5 ${turn ? 'border-t border-zinc-200 pt-3 dark:border-zinc-800' : ''} ${marked ? 'border-l-4 border-l-amber-500 pl-2' : ''}`}
    >
      <div className="flex flex-wrap items-center gap-2">
        {turn && <h3 className="text-sm font-semibold">Turn {row.turnNumber}</h3>}
        <Marks marks={row.marks} />
      </div>
      <div className="grid grid-cols-1 gap-1.5 md:grid-cols-2 md:gap-3">
        {row.kind === 'turn' ? (
          <>
            <TurnCell side="A" turn={row.a} marks={row.marks} />
            <TurnCell side="B" turn={row.b} marks={row.marks} />
          </>
        ) : (
          <>
            <CallCell side="A" call={row.a} marks={row.marks} />
            <CallCell side="B" call={row.b} marks={row.marks} />
          </>
        )}
      </div>
    </li>
  );
}

function foldLabel(rows: CompareRow[]) {
  const calls = rows.filter((r): r is CallRow => r.kind === 'call').length;
  const turns = [...new Set(rows.map((r) => r.turnNumber))];
  const where = turns.length === 1 ? `turn ${turns[0]}` : `turns ${turns[0]}–${turns[turns.length - 1]}`;
  return `${calls} identical ${calls === 1 ? 'call' : 'calls'} (${where})`;
}

export function CompareRows({ rows }: { rows: CompareRow[] }) {
  const items = foldIdentical(rows);
  return (
    <ol className="space-y-1" data-testid="compare-rows">
      {items.map((item) =>
        item.kind === 'fold' ? (
          <li key={item.key} data-testid="compare-fold" data-rows={item.rows.length}>
            <details className="rounded-md bg-zinc-50 px-2 py-1 text-xs text-zinc-700 dark:bg-zinc-900 dark:text-zinc-300">
              <summary className="cursor-pointer">{foldLabel(item.rows)}</summary>
              <ol className="mt-1 space-y-0.5 font-mono">
                {item.rows.slice(0, FOLD_PREVIEW).map((r) =>
                  r.kind === 'turn' ? (
                    <li key={r.key} className="font-sans font-semibold">
                      Turn {r.turnNumber}
                    </li>
                  ) : (
                    <li key={r.key} className="truncate" style={{ paddingLeft: `${Math.min(r.a?.depth ?? 0, 3) * 0.75}rem` }}>
                      {r.a?.tool} {preview(r.a?.args, 100)}
                    </li>
                  ),
                )}
                {item.rows.length > FOLD_PREVIEW && <li className="font-sans">… and {item.rows.length - FOLD_PREVIEW} more, the same on both sides</li>}
              </ol>
            </details>
          </li>
        ) : (
          <Row key={item.key} row={item} />
        ),
      )}
    </ol>
  );
}
