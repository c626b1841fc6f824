// The run's outcome in words, and the rules that decide it (lib/agent/run-outcome.ts).
import { OUTCOME_RULES } from '@/lib/agent/run-outcome';
import { plural, type TraceState } from '@/lib/trace';

export function RunOutcomePanel({ trace, storedError }: { trace: TraceState; storedError: { code: string; message: string } | null }) {
  const ended = trace.status === 'succeeded' || trace.status === 'failed' || trace.status === 'cancelled';
  if (!ended) return null;
  const rule = trace.outcome?.rule ?? null;
  const reason = trace.outcome?.reason ?? (storedError ? `${storedError.code}: ${storedError.message}` : null);
  return (
    <section data-testid="run-outcome" data-status={trace.status} aria-label="Outcome" className="space-y-2 rounded-xl border border-zinc-200 p-4 text-sm dark:border-zinc-800">
      <p className="font-medium">
        Outcome:{' '}
        <span data-testid="run-outcome-status">
          {trace.status === 'succeeded' && trace.failedCalls > 0 ? `succeeded, ${plural(trace.failedCalls, 'call')} failed` : trace.status}
        </span>
        {reason && <span className="font-normal text-zinc-700 dark:text-zinc-300"> — {reason}</span>}
      </p>
      <details className="text-xs text-zinc-700 dark:text-zinc-300">
        <summary className="cursor-pointer">How the outcome is decided</summary>
        <ol className="mt-1 list-decimal space-y-0.5 pl-5" data-testid="outcome-rules">
          {OUTCOME_RULES.map((r) => (
            <li key={r.rule} data-rule={r.rule} aria-current={r.rule === rule ? 'true' : undefined} className={r.rule === rule ? 'font-semibold' : ''}>
              {r.text}
            </li>
          ))}
        </ol>
      </details>
    </section>
  );
}
