import { connectTeamAction, disconnectTeamAction } from '../../_actions/connections';
import { ActionForm } from '../../_components/action-form';
import { button, input, muted, quiet, section } from '../../_components/styles';

type Connection = { provider: string; claims: string[]; expiresAt: Date | null; connectedAt: Date };
type Provider = { id: string; name: string };

export function ConnectionsSection({ slug, admin, connections, providers }: { slug: string; admin: boolean; connections: Connection[]; providers: Provider[] }) {
  const nameOf = (id: string) => providers.find((p) => p.id === id)?.name ?? id;
  return (
    <section className={section} aria-labelledby="connections-h">
      <h2 id="connections-h" className="font-semibold">
        Connections
      </h2>
      <p className={muted}>
        An account connected for the team: members&apos; runs of @{slug}&apos;s own skills may use it; nobody else&apos;s runs, and no other skill. Its token is never shown.
      </p>
      {connections.length === 0 ? (
        <p className={muted}>No team connections.</p>
      ) : (
        <ul className="space-y-1 text-sm" data-testid="team-connections">
          {connections.map((c) => (
            <li key={c.provider} className="flex flex-wrap items-center gap-2">
              <span className="min-w-0 flex-1">
                {nameOf(c.provider)} <code className="text-xs">@oauth/{c.provider}</code> · {c.claims.filter((x) => x !== 'account').join(', ') || 'no scopes'} · connected{' '}
                {c.connectedAt.toISOString().slice(0, 10)}
              </span>
              {admin && (
                <ActionForm action={disconnectTeamAction}>
                  <input type="hidden" name="team" value={slug} />
                  <input type="hidden" name="provider" value={c.provider} />
                  <button type="submit" className={quiet} aria-label={`Disconnect ${nameOf(c.provider)}`}>
                    Disconnect
                  </button>
                </ActionForm>
              )}
            </li>
          ))}
        </ul>
      )}
      {admin && providers.length > 0 && (
        <ActionForm action={connectTeamAction} className="flex flex-wrap items-end gap-2" testId="team-connect-form">
          <input type="hidden" name="team" value={slug} />
          <label className="sr-only" htmlFor="connect-provider">
            Provider
          </label>
          <select id="connect-provider" name="provider" className={input}>
            {providers.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
          <label className="sr-only" htmlFor="connect-scopes">
            Scopes
          </label>
          <input id="connect-scopes" name="scopes" placeholder="scopes, e.g. api:read" className={`${input} min-w-[10rem] flex-1`} />
          <button type="submit" className={button}>
            Connect for the team
          </button>
        </ActionForm>
      )}
    </section>
  );
}
