import type { Metadata } from 'next';
import Link from 'next/link';
import { headers } from 'next/headers';
import { notFound, redirect } from 'next/navigation';
import { forSignedInUser } from '@/lib/actions';
import { isAppError } from '@/lib/errors';
import { getWorkspace } from '@/lib/teams';
import { muted, section } from '../../_components/styles';
import { MembersSection } from './members-section';
import { SecretsSection } from './secrets-section';
import { TokensSection } from './tokens-section';
import { AuditSection } from './audit-section';
import { SettingsSection } from './settings-section';
import { ConnectionsSection } from './connections-section';
import { providersFromEnv } from '@/lib/auth';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ slug: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `@${(await params).slug}`, robots: { index: false } };
}

export default async function WorkspacePage({ params }: Props) {
  const { slug } = await params;
  let ws;
  try {
    ws = await forSignedInUser((db, actor) => getWorkspace(db, actor, slug));
  } catch (err) {
    if (isAppError(err) && err.status === 404) notFound();
    throw err;
  }
  if (!ws) redirect(`/signin?next=/teams/${encodeURIComponent(slug)}`);
  const h = await headers();
  const origin = `${h.get('x-forwarded-proto') ?? 'http'}://${h.get('x-forwarded-host') ?? h.get('host')}`;
  const { team, admin } = ws;
  return (
    <div className="space-y-6">
      <header className="space-y-1">
        <h1 className="text-2xl font-semibold tracking-tight" data-testid="team-name">
          {team.name}
        </h1>
        <p className={muted}>
          @{team.slug} · you are {team.role === 'admin' || team.role === 'owner' ? 'an' : 'a'} {team.role} · {ws.members.length} member
          {ws.members.length === 1 ? '' : 's'}
        </p>
      </header>

      <section className={section} aria-labelledby="skills-h">
        <h2 id="skills-h" className="font-semibold">
          Skills
        </h2>
        {ws.skills.length === 0 ? (
          <p className={muted}>
            No skills yet. Publishers publish into <code>@{team.slug}</code> with <code>skillyard publish --scope @{team.slug}</code> or from the publish page; private skills are
            seen only by members.
          </p>
        ) : (
          <ul className="divide-y divide-zinc-200 dark:divide-zinc-800" data-testid="team-skills">
            {ws.skills.map((s) => (
              <li key={s.name} className="flex flex-wrap items-baseline justify-between gap-2 py-2">
                <Link href={`/skills/${team.slug}/${s.name}`} className="font-medium hover:underline">
                  @{team.slug}/{s.name}
                </Link>
                <span className="text-xs text-zinc-600 dark:text-zinc-400">{s.visibility}</span>
                <p className="basis-full truncate text-sm text-zinc-600 dark:text-zinc-400">{s.description}</p>
              </li>
            ))}
          </ul>
        )}
      </section>

      <MembersSection ws={ws} origin={origin} />
      <SecretsSection slug={team.slug} admin={admin} secrets={ws.secrets} />
      {admin && <TokensSection slug={team.slug} tokens={ws.tokens} />}
      <ConnectionsSection slug={team.slug} admin={admin} connections={ws.connections} providers={providersFromEnv().map((p) => ({ id: p.id, name: p.name }))} />

      <section className={section} aria-labelledby="runs-h">
        <h2 id="runs-h" className="font-semibold">
          Runs
        </h2>
        <p className={muted}>Runs members start of @{team.slug}&apos;s skills; every member sees them, nobody else sees the private ones.</p>
        {ws.runs.length === 0 ? (
          <p className={muted}>No team runs yet.</p>
        ) : (
          <ul className="divide-y divide-zinc-200 text-sm dark:divide-zinc-800" data-testid="team-runs">
            {ws.runs.map((r) => (
              <li key={r.id}>
                <Link href={`/playground/runs/${r.id}`} className="grid gap-1 py-2 hover:underline sm:grid-cols-[6rem_1fr_auto] sm:items-baseline sm:gap-3">
                  <span data-status={r.status}>{r.status}</span>
                  <span className="min-w-0 truncate">
                    {r.skills.join(', ')}{' '}
                    <span className="text-zinc-600 dark:text-zinc-400">
                      · {r.by} · {r.visibility}
                    </span>
                  </span>
                  <time dateTime={r.createdAt.toISOString()} className="text-xs text-zinc-600 dark:text-zinc-400">
                    {r.createdAt.toISOString().slice(0, 16).replace('T', ' ')} UTC
                  </time>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>

      {admin && <AuditSection events={ws.audit} members={ws.members} tokens={ws.tokens} />}
      {admin && <SettingsSection slug={team.slug} name={team.name} owner={team.role === 'owner'} />}
    </div>
  );
}
