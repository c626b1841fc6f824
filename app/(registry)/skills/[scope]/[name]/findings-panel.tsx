// The shown version's scan findings, each explaining itself: the rule and its severity,
// the matched text in its lines, why it matters, and the owner's review (reason, who,
// when) when there is one. The owner gets a "Mark as reviewed" form per finding.
import type { ExplainedFinding } from '@/lib/registry';
import { FindingReviewForm } from './finding-review-form';

type Props = { scope: string; name: string; version: string; findings: ExplainedFinding[]; manage: boolean };

const SEVERITY: Record<ExplainedFinding['severity'], string> = {
  danger: 'border-red-400 bg-red-50 dark:border-red-800 dark:bg-red-950/40',
  warning: 'border-amber-400 bg-amber-50 dark:border-amber-800 dark:bg-amber-950/40',
  info: 'border-zinc-300 bg-zinc-50 dark:border-zinc-700 dark:bg-zinc-900',
};

/** The matched line with the match marked (when the stored excerpt still holds it). */
function MatchedLine({ excerpt, match }: { excerpt: string; match?: string }) {
  const at = match ? excerpt.indexOf(match) : -1;
  if (!match || at < 0) return <>{excerpt}</>;
  return (
    <>
      {excerpt.slice(0, at)}
      <mark className="rounded bg-amber-200 px-0.5 text-zinc-950 dark:bg-amber-700 dark:text-white">{match}</mark>
      {excerpt.slice(at + match.length)}
    </>
  );
}

export function FindingsPanel({ scope, name, version, findings, manage }: Props) {
  if (findings.length === 0) return null;
  return (
    <section aria-labelledby="findings-heading" className="space-y-3" data-testid="findings">
      <h2 id="findings-heading" className="text-lg font-semibold">
        Scan findings <span className="text-sm font-normal text-zinc-600 dark:text-zinc-400">({findings.length})</span>
      </h2>
      <ul className="space-y-3">
        {findings.map((f) => (
          <li key={`${f.rule}:${f.file}:${f.line}`} className={`min-w-0 space-y-2 rounded-xl border p-3 text-sm break-words ${SEVERITY[f.severity]}`} data-testid="finding" data-rule={f.rule}>
            <div className="flex flex-wrap items-baseline gap-2">
              <span className="rounded bg-white/70 px-1.5 py-0.5 text-xs font-semibold uppercase dark:bg-black/40">{f.severity}</span>
              <span className="font-medium">{f.message}</span>
              <code className="text-xs text-zinc-800 dark:text-zinc-200">{f.rule}</code>
            </div>
            <div>
              <div className="font-mono text-xs text-zinc-800 dark:text-zinc-200">
                {f.file}:{f.line}
              </div>
              {/* focusable: a keyboard user must be able to scroll a long line (axe scrollable-region-focusable) */}
              <pre
                tabIndex={0}
                aria-label={`${f.file} around line ${f.line}`}
                className="mt-1 overflow-x-auto rounded bg-white p-2 font-mono text-xs text-zinc-900 dark:bg-zinc-950 dark:text-zinc-100"
                data-testid="finding-context"
              >
                {(f.before ?? []).map((l, i) => (
                  <span key={`b${i}`} className="block text-zinc-700 dark:text-zinc-300">
                    {l || ' '}
                  </span>
                ))}
                <span className="block font-semibold">
                  <MatchedLine excerpt={f.excerpt} match={f.match} />
                </span>
                {(f.after ?? []).map((l, i) => (
                  <span key={`a${i}`} className="block text-zinc-700 dark:text-zinc-300">
                    {l || ' '}
                  </span>
                ))}
              </pre>
            </div>
            <p data-testid="finding-why">
              <span className="font-medium">Why it matters: </span>
              {f.why}
            </p>
            {f.review ? (
              <p className="rounded border border-emerald-700 bg-white p-2 text-xs text-zinc-900 dark:bg-zinc-950 dark:text-zinc-100" data-testid="finding-review">
                <span className="font-medium text-emerald-800 dark:text-emerald-300">Reviewed by the owner</span>
                {f.review.reviewedBy ? ` (@${f.review.reviewedBy})` : ''} on {f.review.createdAt.toISOString().slice(0, 10)}: {f.review.reason}
              </p>
            ) : (
              manage && <FindingReviewForm scope={scope} name={name} version={version} rule={f.rule} file={f.file} line={f.line} />
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
