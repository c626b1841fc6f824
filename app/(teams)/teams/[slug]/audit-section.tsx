import { muted, section } from '../../_components/styles';

type Event = { id: string; action: string; target: string | null; ip: string | null; actorUserId: string | null; actorTokenId: string | null; createdAt: Date };
type Member = { user: { id: string; handle: string | null; name: string | null } };

/**
 * An address as the audit log stores it (an IPv6 client as its /64, lib/api/address-bucket.ts)
 * in its short form: `2001:db8::/64`; the all-zero network is the loopback's (::1).
 */
function shownAddress(ip: string): string {
  const m = /^([0-9a-f:]+)::\/64$/i.exec(ip);
  if (!m) return ip;
  const groups = m[1].split(':');
  if (groups.every((g) => /^0+$/.test(g))) return '::1 (this machine)';
  return `${groups.join(':').replace(/(:0+)+$/, '')}::/64`;
}

export function AuditSection({ events, members, tokens }: { events: Event[]; members: Member[]; tokens: Array<{ id: string; name: string }> }) {
  const who = (e: Event) => {
    const m = members.find((x) => x.user.id === e.actorUserId);
    if (m) return m.user.handle ? `@${m.user.handle}` : (m.user.name ?? 'a member');
    // a team API token acts as the team's service account, which is no member
    if (e.actorTokenId) {
      const t = tokens.find((x) => x.id === e.actorTokenId);
      return t ? `team token ${t.name}` : 'a team token';
    }
    return e.actorUserId ? 'a former member' : 'nobody';
  };
  const shownTarget = (e: Event) => (e.target && /^(secret|connection|skill)\./.test(e.action) ? ` ${e.target}` : '');
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
                  <td className="py-1 pr-3">{who(e)}</td>
                  <td className="py-1 pr-3">
                    {e.action}
                    {shownTarget(e)}
                  </td>
                  <td className="py-1">{e.actorTokenId ? 'API token' : e.ip ? <span title={e.ip}>{shownAddress(e.ip)}</span> : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
