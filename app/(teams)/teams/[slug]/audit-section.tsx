import { muted, section } from '../../_components/styles';

type Event = { id: string; action: string; target: string | null; ip: string | null; actorUserId: string | null; actorTokenId: string | null; createdAt: Date };
type Member = { user: { id: string; handle: string | null; name: string | null } };

export function AuditSection({ events, members }: { events: Event[]; members: Member[] }) {
  const who = (id: string | null) => {
    const m = members.find((x) => x.user.id === id);
    return m ? (m.user.handle ? `@${m.user.handle}` : (m.user.name ?? 'a member')) : id ? 'a former member' : 'nobody';
  };
  return (
    <section className={section} aria-labelledby="audit-h">
      <h2 id="audit-h" className="font-semibold">
        Audit log
      </h2>
      {events.length === 0 ? (
        <p className={muted}>Nothing yet.</p>
      ) : (
        <div className="overflow-x-auto" tabIndex={0} role="region" aria-label="Audit log entries">
          <table className="w-full text-left text-sm" data-testid="audit-log">
            <thead className="text-xs text-zinc-600 dark:text-zinc-400">
              <tr>
                <th className="py-1 pr-3 font-medium">When</th>
                <th className="py-1 pr-3 font-medium">Who</th>
                <th className="py-1 pr-3 font-medium">What</th>
                <th className="py-1 font-medium">From</th>
              </tr>
            </thead>
            <tbody>
              {events.map((e) => (
                <tr key={e.id} className="border-t border-zinc-200 dark:border-zinc-800">
                  <td className="whitespace-nowrap py-1 pr-3">{e.createdAt.toISOString().slice(0, 16).replace('T', ' ')}</td>
                  <td className="py-1 pr-3">{who(e.actorUserId)}</td>
                  <td className="py-1 pr-3">
                    {e.action}
                    {e.target && e.action.startsWith('secret.') ? ` ${e.target}` : ''}
                  </td>
                  <td className="py-1">{e.actorTokenId ? 'API token' : (e.ip ?? '—')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
