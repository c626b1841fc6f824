'use client';
// The rendering of timeline blocks. Each block and call is memoised on its `rev`, so a
// new event re-renders only the turn (and call) it touched.
import { memo } from 'react';
import { CodeBlock } from './code-block';
import { JsonView } from './json-view';
import { ObjectView, type ObjectComponent } from './object-view';
import type { Block, CallNode, NoteBlock, RunEvent, TraceError, TurnBlock } from './trace-model';

export function formatMs(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return '';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

const between = (a?: string | null, b?: string | null) => (a && b ? Date.parse(b) - Date.parse(a) : undefined);

function Duration({ ms }: { ms: number | undefined }) {
  const text = formatMs(ms);
  return text ? (
    <span data-testid="duration" className="font-mono text-xs tabular-nums text-zinc-500">
      {text}
    </span>
  ) : null;
}

function StatusDot({ status }: { status: CallNode['status'] }) {
  const cls = status === 'ok' ? 'bg-emerald-500' : status === 'error' ? 'bg-red-500' : 'animate-pulse bg-amber-400';
  return <span aria-label={status === 'pending' ? 'running' : status} className={`inline-block h-2 w-2 shrink-0 rounded-full ${cls}`} />;
}

function ErrorBox({ error, title, testId }: { error: TraceError; title?: string; testId?: string }) {
  return (
    <div data-testid={testId} role="note" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-xs text-red-800 dark:border-red-900 dark:bg-red-950/40 dark:text-red-300">
      {title && <span className="mr-2 font-semibold">{title}</span>}
      <code className="font-mono font-semibold">{error.code}</code>
      {error.message && <span className="ml-2 whitespace-pre-wrap">{error.message}</span>}
    </div>
  );
}

function Logs({ logs }: { logs?: string[] }) {
  if (!logs?.length) return null;
  return (
    <details className="text-xs">
      <summary className="cursor-pointer text-zinc-500">console ({logs.length} lines)</summary>
      <pre className="mt-1 max-h-60 overflow-auto rounded bg-zinc-900 p-2 font-mono text-zinc-100">{logs.slice(0, 100).join('\n')}</pre>
    </details>
  );
}

const CodeCall = memo(
  function CodeCall({ node }: { node: CallNode; rev: number }) {
    return (
      <li data-testid="tool-call" data-tool={node.tool} data-status={node.status} data-seqs={node.seqs.join(',')} className="space-y-1.5 py-2">
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <StatusDot status={node.status} />
          <code className="font-mono font-medium">ctx.invoke(&apos;{node.tool}&apos;)</code>
          <Duration ms={node.durationMs} />
        </div>
        <div className="grid gap-1.5 pl-4">
          <JsonView value={node.args} label="args" testId="tool-args" />
          {node.status === 'ok' && <JsonView value={node.result} label="result" testId="tool-result" />}
          {node.error && <ErrorBox error={node.error} testId="tool-error" />}
          <Logs logs={node.logs} />
        </div>
      </li>
    );
  },
  (a, b) => a.node === b.node && a.rev === b.rev,
);

const InvokeCall = memo(
  function InvokeCall({ node }: { node: CallNode; rev: number }) {
    const code = node.args && typeof node.args === 'object' ? (node.args as { code?: unknown }).code : undefined;
    const value = node.result && typeof node.result === 'object' && 'value' in (node.result as object) ? (node.result as { value: unknown }).value : node.result;
    return (
      <div data-testid="invoke" data-status={node.status} data-seqs={node.seqs.join(',')} className="space-y-2">
        <div className="flex flex-wrap items-center gap-2 text-xs font-medium tracking-wide text-zinc-500 uppercase">
          <StatusDot status={node.status} />
          <span>{node.tool === 'invoke' ? 'Code' : node.tool}</span>
          <Duration ms={node.durationMs} />
          {node.denied && <span className="rounded bg-red-100 px-1.5 normal-case text-red-800 dark:bg-red-950 dark:text-red-300">denied: {node.denied}</span>}
        </div>
        {typeof code === 'string' ? <CodeBlock code={code} testId="invoke-code" /> : <JsonView value={node.args} label="args" />}
        {node.children.length > 0 && (
          <ul className="divide-y divide-zinc-100 border-l-2 border-emerald-200 pl-3 dark:divide-zinc-900 dark:border-emerald-900" aria-label="Tool calls from this code">
            {node.children.map((c) => (
              <CodeCall key={c.key} node={c} rev={c.rev} />
            ))}
          </ul>
        )}
        {node.status === 'ok' && <JsonView value={value} label="returned" testId="invoke-result" />}
        {node.error && <ErrorBox error={node.error} title="Code failed" testId="invoke-error" />}
        <Logs logs={node.logs} />
      </div>
    );
  },
  (a, b) => a.node === b.node && a.rev === b.rev,
);

function describeNote(e: RunEvent, resolved: boolean): { tone: 'info' | 'warn' | 'error' | 'ok'; title: string; detail?: React.ReactNode; testId: string } {
  const err = (e.error ?? {}) as TraceError;
  switch (e.type) {
    case 'agent-start': {
      const tools = Array.isArray(e.tools) ? (e.tools as string[]) : [];
      return {
        tone: 'info',
        testId: 'agent-start',
        title: `Agent started · ${String(e.mode ?? '')} mode${e.model ? ` · ${String(e.model)}` : ''}`,
        detail: (
          <span className="text-xs text-zinc-500">
            limits {String(e.maxTurns)} turns / {String(e.maxSteps)} steps
            {tools.length > 0 && (
              <>
                {' · tools '}
                {tools.map((t) => (
                  <code key={t} className="mr-1 rounded bg-zinc-100 px-1 font-mono dark:bg-zinc-800">
                    {t}
                  </code>
                ))}
              </>
            )}
          </span>
        ),
      };
    }
    case 'awaiting-input':
      return resolved
        ? { tone: 'info', testId: 'input-received', title: `Turn ${String(e.turnNumber)} written by a person` }
        : { tone: 'warn', testId: 'awaiting-input', title: `Waiting for the code of turn ${String(e.turnNumber)}…` };
    case 'error':
      return { tone: 'error', testId: 'model-error', title: `Model request failed (attempt ${String(e.attempt ?? 1)})`, detail: <ErrorBox error={err} /> };
    case 'retry':
      return {
        tone: 'warn',
        testId: 'retry',
        title: `Retry ${String(e.attempt ?? '')} in ${formatMs(Number(e.delayMs))}${e.status ? ` · HTTP ${String(e.status)}` : ''}`,
        detail: e.reason ? <span className="text-xs">{String(e.reason)}</span> : undefined,
      };
    case 'agent-error':
      return {
        tone: 'error',
        testId: 'run-error',
        title: `Run failed after ${String(e.turns ?? '?')} turns, ${String(e.steps ?? '?')} steps`,
        detail: <ErrorBox error={err} />,
      };
    case 'agent-complete':
      return {
        tone: 'ok',
        testId: 'run-result',
        title: `Completed in ${String(e.turns)} turns, ${String(e.steps)} steps${e.finished ? '' : ' (no ctx.finish: the model’s last text)'}`,
        detail: <JsonView value={e.result} label="result" open testId="result-json" />,
      };
    case 'run-end':
      return { tone: 'info', testId: 'run-end', title: `Run ${String(e.status)}` };
    default:
      return { tone: 'info', testId: 'other-event', title: e.type, detail: <JsonView value={e} /> };
  }
}

const TONES = {
  info: 'border-zinc-200 bg-zinc-50 text-zinc-700 dark:border-zinc-800 dark:bg-zinc-900/50 dark:text-zinc-300',
  warn: 'border-amber-200 bg-amber-50 text-amber-900 dark:border-amber-900 dark:bg-amber-950/40 dark:text-amber-200',
  error: 'border-red-200 bg-red-50/60 text-red-900 dark:border-red-900 dark:bg-red-950/30 dark:text-red-200',
  ok: 'border-emerald-200 bg-emerald-50 text-emerald-900 dark:border-emerald-900 dark:bg-emerald-950/40 dark:text-emerald-200',
};

const NoteView = memo(
  function NoteView({ note }: { note: NoteBlock; rev: number }) {
  const e = note.event;
  if (e.type === 'object') {
    return (
      <li data-testid="trace-item" data-type="object" data-seqs={note.seqs.join(',')}>
        <ObjectView component={(e.component ?? {}) as ObjectComponent} />
      </li>
    );
  }
  const { tone, title, detail, testId } = describeNote(e, !!note.resolved);
  return (
    <li data-testid="trace-item" data-type={e.type} data-seqs={note.seqs.join(',')}>
      <div data-testid={testId} className={`space-y-1.5 rounded-lg border px-3 py-2 text-sm ${TONES[tone]}`}>
        <div className="font-medium">{title}</div>
        {detail}
      </div>
    </li>
  );
  },
  (a, b) => a.note === b.note && a.rev === b.rev,
);

const TurnView = memo(
  function TurnView({ turn }: { turn: TurnBlock; rev: number }) {
    const open = !turn.end;
    return (
      <li
        data-testid="trace-item"
        data-type="turn"
        data-turn={turn.turnNumber}
        data-seqs={turn.seqs.join(',')}
        className="space-y-3 rounded-xl border border-zinc-200 p-4 [contain-intrinsic-size:auto_240px] [content-visibility:auto] dark:border-zinc-800"
      >
        <header className="flex items-center gap-3">
          <span className="grid h-6 min-w-6 place-items-center rounded-full bg-zinc-900 px-1.5 text-xs font-semibold text-white dark:bg-zinc-100 dark:text-zinc-900">
            {turn.turnNumber}
          </span>
          <h3 className="text-sm font-semibold">Turn {turn.turnNumber}</h3>
          {open ? <span className="animate-pulse text-xs text-amber-600 dark:text-amber-400">in progress…</span> : <Duration ms={between(turn.startedAt, turn.endedAt)} />}
          {turn.end?.finished && <span className="rounded bg-emerald-100 px-1.5 text-xs text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300">finished</span>}
        </header>
        {turn.reasoning && (
          <details className="text-sm text-zinc-500">
            <summary className="cursor-pointer">Reasoning</summary>
            <p className="mt-1 whitespace-pre-wrap">{turn.reasoning}</p>
          </details>
        )}
        {turn.text && (
          <p data-testid="turn-text" className="text-sm leading-6 whitespace-pre-wrap">
            {turn.text}
          </p>
        )}
        {turn.items.map((c) =>
          c.kind === 'note' ? (
            <ul key={c.key}>
              <NoteView note={c} rev={c.rev} />
            </ul>
          ) : c.via === 'model' ? (
            <InvokeCall key={c.key} node={c} rev={c.rev} />
          ) : (
            <ul key={c.key}>
              <CodeCall node={c} rev={c.rev} />
            </ul>
          ),
        )}
      </li>
    );
  },
  (a, b) => a.turn === b.turn && a.rev === b.rev,
);

export function Timeline({ blocks }: { blocks: Block[] }) {
  return (
    <ol data-testid="timeline" className="space-y-3" aria-label="Run trace">
      {blocks.map((b) => (b.kind === 'turn' ? <TurnView key={b.key} turn={b} rev={b.rev} /> : <NoteView key={b.key} note={b} rev={b.rev} />))}
    </ol>
  );
}
