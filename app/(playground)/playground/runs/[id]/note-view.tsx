'use client';
// An event shown on its own in the trace: the start, model errors and retries, objects,
// a manual run's wait for input, the agent's end and the run's end with its reason.
import { memo } from 'react';
import { formatMs, plural, type NoteBlock, type RunEvent, type TraceError } from '@/lib/trace';
import { ErrorBox } from './call-views';
import { JsonView } from '@/app/_components/json-view';
import { ObjectView, type ObjectComponent } from './object-view';

type Tone = 'info' | 'warn' | 'error' | 'ok';
type Described = { tone: Tone; title: string; detail?: React.ReactNode; testId: string; error?: boolean };

const turnsAndSteps = (e: RunEvent) => `${plural(Number(e.turns ?? 0), 'turn')}, ${plural(Number(e.steps ?? 0), 'step')}`;

function describeNote(e: RunEvent, note: NoteBlock): Described {
  const err = (e.error ?? {}) as TraceError;
  switch (e.type) {
    case 'agent-start': {
      const tools = Array.isArray(e.tools) ? (e.tools as string[]) : [];
      return {
        tone: 'info',
        testId: 'agent-start',
        title: `Agent started · ${String(e.mode ?? '')} mode${e.model ? ` · ${String(e.model)}` : ''}`,
        detail: (
          <span className="text-xs text-zinc-600 dark:text-zinc-400">
            limits {plural(Number(e.maxTurns), 'turn')} / {plural(Number(e.maxSteps), 'step')}
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
      if (note.resolved) return { tone: 'info', testId: 'input-received', title: `Turn ${String(e.turnNumber)} written by you (manual mode)` };
      if (note.abandoned) return { tone: 'info', testId: 'input-abandoned', title: `No code was written for turn ${String(e.turnNumber)}: the run ended first` };
      return { tone: 'warn', testId: 'awaiting-input', title: `Waiting for the code of turn ${String(e.turnNumber)}…` };
    case 'error':
      return {
        tone: 'error',
        error: true,
        testId: 'model-error',
        title: `Model request failed (attempt ${String(e.attempt ?? 1)})`,
        detail: <ErrorBox error={err} />,
      };
    case 'retry':
      return {
        tone: 'warn',
        testId: 'retry',
        title: `Retry ${String(e.attempt ?? '')} in ${formatMs(Number(e.delayMs))}${e.status ? ` · HTTP ${String(e.status)}` : ''}`,
        detail: e.reason ? <span className="text-xs">{String(e.reason)}</span> : undefined,
      };
    case 'agent-error':
      // a cancel reaches the agent as an error; it is not a failure of the run
      if (err.code === 'agent/cancelled') return { tone: 'info', testId: 'agent-cancelled', title: `Agent stopped after ${turnsAndSteps(e)}: cancelled` };
      return { tone: 'error', error: true, testId: 'run-error', title: `Agent stopped by an error after ${turnsAndSteps(e)}`, detail: <ErrorBox error={err} /> };
    case 'agent-complete':
      return {
        tone: e.finished ? 'ok' : 'info',
        testId: 'run-result',
        title: e.finished ? `Finished with ctx.finish after ${turnsAndSteps(e)}` : `Agent ended after ${turnsAndSteps(e)} without ctx.finish (the result is the model’s last text)`,
        detail: <JsonView value={e.result} label="result" open testId="result-json" />,
      };
    case 'run-end': {
      const status = String(e.status);
      return {
        tone: status === 'succeeded' ? 'ok' : status === 'failed' ? 'error' : 'info',
        testId: 'run-end',
        title: `Run ${status}`,
        detail:
          typeof e.reason === 'string' && e.reason ? (
            <span data-testid="run-end-reason" className="text-xs">
              {e.reason}
            </span>
          ) : undefined,
      };
    }
    default:
      return { tone: 'info', testId: 'other-event', title: e.type, detail: <JsonView value={e} /> };
  }
}

const TONES: Record<Tone, string> = {
  info: 'border-zinc-200 bg-zinc-50 text-zinc-800 dark:border-zinc-800 dark:bg-zinc-900/50 dark:text-zinc-200',
  warn: 'border-amber-200 bg-amber-50 text-amber-900 dark:border-amber-900 dark:bg-amber-950/40 dark:text-amber-200',
  error: 'border-red-200 bg-red-50/60 text-red-900 dark:border-red-900 dark:bg-red-950/30 dark:text-red-200',
  ok: 'border-emerald-200 bg-emerald-50 text-emerald-900 dark:border-emerald-900 dark:bg-emerald-950/40 dark:text-emerald-200',
};

export const NoteView = memo(
  function NoteView({ note }: { note: NoteBlock; rev: number }) {
    const e = note.event;
    if (e.type === 'object') {
      return (
        <li data-testid="trace-item" data-type="object" data-seqs={note.seqs.join(',')}>
          <ObjectView component={(e.component ?? {}) as ObjectComponent} />
        </li>
      );
    }
    const { tone, title, detail, testId, error } = describeNote(e, note);
    return (
      <li data-testid="trace-item" data-type={e.type} data-seqs={note.seqs.join(',')} data-trace-error={error ? '' : undefined} tabIndex={error ? -1 : undefined}>
        <div data-testid={testId} className={`min-w-0 space-y-1.5 rounded-lg border px-3 py-2 text-sm break-words ${TONES[tone]}`}>
          <div className="font-medium">{title}</div>
          {detail}
        </div>
      </li>
    );
  },
  (a, b) => a.note === b.note && a.rev === b.rev,
);
