// "What the code did at publish": the version's publish-time run (lib/evidence) per tool
// and example: outcome against the expected result, and every attempt the code made, with
// those outside the declared permissions flagged and their line linked to the source.
import Link from 'next/link';
import type { Attempt, ExampleEvidence, ExampleOutcome, VersionTrust } from '@/lib/evidence';
import { addToGroup } from '@/lib/skills';

const OUTCOME: Record<ExampleOutcome, { label: string; className: string }> = {
  passed: { label: 'passed', className: 'bg-emerald-100 text-emerald-900 dark:bg-emerald-900 dark:text-emerald-50' },
  failed: { label: 'failed', className: 'bg-red-100 text-red-900 dark:bg-red-900 dark:text-red-50' },
  ran: { label: 'ran', className: 'bg-zinc-200 text-zinc-900 dark:bg-zinc-700 dark:text-zinc-50' },
  error: { label: 'threw an error', className: 'bg-amber-100 text-amber-950 dark:bg-amber-900 dark:text-amber-50' },
  stopped: { label: 'stopped at its limit', className: 'bg-amber-100 text-amber-950 dark:bg-amber-900 dark:text-amber-50' },
};

const json = (v: unknown) => {
  const s = JSON.stringify(v);
  return s === undefined ? 'undefined' : s.length > 300 ? `${s.slice(0, 300)}…` : s;
};

const ATTEMPT_VERB: Record<Attempt['kind'], string> = {
  net: 'network request to',
  storage: 'storage',
  tool: 'tool call',
  token: 'token',
  secret: 'secret read',
  event: 'event',
  ai: 'model call',
  object: 'component',
  capability: 'used the undeclared capability',
};

function AttemptItem({ a, fileHref }: { a: Attempt; fileHref: (file: string) => string }) {
  return (
    <li className="break-words" data-testid={a.declared ? 'evidence-attempt' : 'evidence-flag'}>
      {!a.declared && <strong className="mr-1 rounded bg-red-100 px-1.5 text-red-900 dark:bg-red-900 dark:text-red-50">outside its permissions</strong>}
      {ATTEMPT_VERB[a.kind]} <code className="font-mono">{a.target}</code>
      {a.method !== 'capability' && a.kind !== 'capability' && <span className="text-zinc-700 dark:text-zinc-300"> ({a.method}{a.refused ? ', refused' : ''})</span>}
      {a.where && (
        <span className="block pl-3 text-zinc-700 dark:text-zinc-300">
          at{' '}
          <Link className="font-mono underline" href={fileHref(a.where.file)}>
            {a.where.file}:{a.where.line}
          </Link>{' '}
          <code className="font-mono">{a.where.text}</code>
        </span>
      )}
    </li>
  );
}

function ExampleRow({ e, fileHref }: { e: ExampleEvidence; fileHref: (file: string) => string }) {
  const o = OUTCOME[e.outcome];
  return (
    <li className="space-y-1 rounded-lg border border-zinc-200 p-3 dark:border-zinc-800" data-testid="evidence-example" data-outcome={e.outcome}>
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium">{e.label}</span>
        {e.source === 'smoke' && (
          <span className="rounded bg-sky-100 px-1.5 text-xs text-sky-950 dark:bg-sky-900 dark:text-sky-50" data-testid="evidence-smoke" title="The tool lists no examples: one input was sampled from its parameter schema">
            smoke run
          </span>
        )}
        {e.source === 'schema' && <span className="rounded bg-zinc-100 px-1.5 text-xs text-zinc-800 dark:bg-zinc-800 dark:text-zinc-100">from the schema&apos;s examples</span>}
        <span className={`rounded px-1.5 text-xs font-medium ${o.className}`} data-testid="evidence-outcome">
          {o.label}
        </span>
        <span className="text-xs text-zinc-700 dark:text-zinc-300">{e.durationMs} ms</span>
      </div>
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-2 font-mono text-xs break-all">
        <dt className="font-sans text-zinc-700 dark:text-zinc-300">arguments</dt>
        <dd>{json(e.arguments)}</dd>
        {'expected' in e && (
          <>
            <dt className="font-sans text-zinc-700 dark:text-zinc-300">expected</dt>
            <dd>{json(e.expected)}</dd>
          </>
        )}
        {e.error ? (
          <>
            <dt className="font-sans text-zinc-700 dark:text-zinc-300">error</dt>
            <dd>
              {e.error.code}: {e.error.message}
            </dd>
          </>
        ) : (
          <>
            <dt className="font-sans text-zinc-700 dark:text-zinc-300">result</dt>
            <dd>{json(e.result)}</dd>
          </>
        )}
      </dl>
      {e.attempts.length > 0 && (
        <ul className="space-y-1 text-xs" aria-label={`What ${e.label} attempted`}>
          {e.attempts.map((a, i) => (
            <AttemptItem key={i} a={a} fileHref={fileHref} />
          ))}
        </ul>
      )}
    </li>
  );
}

/** skipped tools named per reason; the rest are counted ("and 12,980 more") */
const SKIPPED_NAMED = 12;

/** The tools not run, grouped by why: a version of thousands of tools is a line, not thousands of items. */
function SkippedTools({ tools }: { tools: Array<{ tool: string; skipped?: string }> }) {
  const byReason = new Map<string, string[]>();
  for (const t of tools) if (t.skipped) addToGroup(byReason, t.skipped, t.tool);
  if (byReason.size === 0) return null;
  return (
    <ul className="space-y-1 text-xs text-zinc-700 dark:text-zinc-300" data-testid="evidence-skipped">
      {[...byReason].map(([reason, names]) => (
        <li key={reason}>
          Not run ({reason}): {names.length === 1 ? 'tool' : `${names.length.toLocaleString('en-US')} tools`}{' '}
          <span className="font-mono">{names.slice(0, SKIPPED_NAMED).join(', ')}</span>
          {names.length > SKIPPED_NAMED && ` and ${(names.length - SKIPPED_NAMED).toLocaleString('en-US')} more`}.
        </li>
      ))}
    </ul>
  );
}

export function EvidenceSection({ trust, fileHref }: { trust: VersionTrust; fileHref: (file: string) => string }) {
  const { evidence } = trust;
  const ev = evidence.result;
  const all = ev?.tools.flatMap((t) => t.examples) ?? [];
  const count = (o: ExampleOutcome) => all.filter((e) => e.outcome === o).length;
  return (
    <section aria-labelledby="evidence-heading" className="space-y-3" data-testid="evidence-section" data-status={evidence.status}>
      <h2 id="evidence-heading" className="text-lg font-semibold">
        What the code did at publish
      </h2>
      {evidence.status === 'none' && <p className="text-sm text-zinc-700 dark:text-zinc-300">This version has no publish-time run (it was published with runs off).</p>}
      {(evidence.status === 'queued' || evidence.status === 'running') && (
        <p className="text-sm text-zinc-700 dark:text-zinc-300" role="status">
          The registry is running this version&apos;s examples in the sandbox; reload in a moment.
        </p>
      )}
      {evidence.status === 'failed' && <p className="text-sm text-red-700 dark:text-red-400">The publish-time run could not be completed: {evidence.error}</p>}
      {ev && (
        <>
          <p className="text-sm text-zinc-700 dark:text-zinc-300" data-testid="evidence-summary">
            {all.length} example{all.length === 1 ? '' : 's'}: {count('passed')} passed, {count('failed')} failed, {count('ran')} ran without an expected result, {count('error') + count('stopped')} errored or stopped.{' '}
            {ev.flagged > 0 ? (
              <strong className="text-red-700 dark:text-red-400">
                {ev.flagged} attempt{ev.flagged === 1 ? '' : 's'} outside the declared permissions.
              </strong>
            ) : (
              'Nothing outside the declared permissions.'
            )}
          </p>
          <p className="text-xs text-zinc-700 dark:text-zinc-300">
            Run {new Date(ev.ranAt).toISOString().slice(0, 16).replace('T', ' ')} UTC with no tokens or secrets, network requests recorded and refused, storage thrown away after, each call limited to {ev.limits.wallMs} ms and {ev.limits.memoryMb} MB.
          </p>
          {/* the tools that ran (the run's budget bounds them), then the others in a line per reason */}
          <ul className="space-y-4">
            {ev.tools
              .filter((t) => !t.skipped)
              .map((t) => (
                <li key={t.tool} className="space-y-2" data-testid="evidence-tool">
                  <h3 className="font-mono text-sm font-medium">{t.tool}</h3>
                  <ul className="space-y-2 text-sm">
                    {t.examples.map((e, i) => (
                      <ExampleRow key={i} e={e} fileHref={fileHref} />
                    ))}
                  </ul>
                </li>
              ))}
          </ul>
          <SkippedTools tools={ev.tools} />
        </>
      )}
    </section>
  );
}
