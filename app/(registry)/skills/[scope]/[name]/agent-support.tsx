import type { AgentVerdict } from '@/lib/skills';

/**
 * "Loads in": whether each agent loads this skill by its documented loader rules (computed
 * when the version was read), apart from conformance to the skill's format.
 */
export function AgentSupport({ agents }: { agents: AgentVerdict[] | undefined }) {
  if (!agents?.length) return null;
  return (
    <section aria-labelledby="agents-heading" className="space-y-2 rounded-xl border border-zinc-200 p-4 text-sm dark:border-zinc-800" data-testid="agent-support">
      <h2 id="agents-heading" className="font-semibold">
        Loads in
      </h2>
      <ul className="space-y-1">
        {agents.map((a) => {
          const blocking = a.reasons.filter((r) => r.effect === 'blocks');
          const caveats = a.reasons.filter((r) => r.effect === 'caveat');
          return (
            <li key={a.agent} data-agent={a.agent} data-loads={a.loads}>
              <span aria-hidden className={a.loads ? 'text-emerald-700 dark:text-emerald-400' : 'text-red-700 dark:text-red-400'}>
                {a.loads ? '✓' : '✗'}
              </span>{' '}
              {a.label}
              <span className="sr-only">{a.loads ? ' loads this skill' : ' does not load this skill'}</span>
              {[...blocking, ...caveats].map((r) => (
                <p key={r.rule} className="ml-5 text-xs text-zinc-600 dark:text-zinc-400" title={r.doc}>
                  {r.effect === 'caveat' ? 'Loads, but ' : ''}
                  {r.message}
                </p>
              ))}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
