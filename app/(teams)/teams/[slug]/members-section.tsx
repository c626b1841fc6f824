import type { getWorkspace } from '@/lib/teams';
import { changeRoleAction, inviteAction, removeMemberAction, revokeInviteAction } from '../../_actions/members';
import { ActionForm } from '../../_components/action-form';
import { button, danger, input, muted, quiet, section } from '../../_components/styles';

type Ws = Awaited<ReturnType<typeof getWorkspace>>;
const ROLES = ['member', 'publisher', 'admin', 'owner'] as const;

export function MembersSection({ ws, origin }: { ws: Ws; origin: string }) {
  const { team, admin } = ws;
  return (
    <section className={section} aria-labelledby="members-h">
      <h2 id="members-h" className="font-semibold">
        Members
      </h2>
      <ul className="divide-y divide-zinc-200 dark:divide-zinc-800" data-testid="team-members">
        {ws.members.map((m) => {
          const self = m.user.id === team.userId;
          // the last owner cannot leave (the server refuses it too): say what to do instead
          const soleOwner = m.role === 'owner' && ws.members.filter((x) => x.role === 'owner').length === 1;
          const label = m.user.handle ? `@${m.user.handle}` : (m.user.name ?? 'unnamed');
          return (
            <li key={m.user.id} className="flex flex-wrap items-center gap-2 py-2">
              <span className="min-w-0 flex-1 basis-full truncate text-sm sm:basis-auto">
                {label} {self && <span className="text-zinc-500">(you)</span>}
              </span>
              {admin && !self ? (
                <>
                  <ActionForm action={changeRoleAction} className="flex flex-wrap items-center gap-2">
                    <input type="hidden" name="team" value={team.slug} />
                    <input type="hidden" name="member" value={m.user.id} />
                    <label className="sr-only" htmlFor={`role-${m.user.id}`}>
                      Role of {label}
                    </label>
                    <select id={`role-${m.user.id}`} name="role" defaultValue={m.role} className={input}>
                      {ROLES.map((r) => (
                        <option key={r}>{r}</option>
                      ))}
                    </select>
                    <button type="submit" className={quiet}>
                      Change
                    </button>
                  </ActionForm>
                  <ActionForm action={removeMemberAction}>
                    <input type="hidden" name="team" value={team.slug} />
                    <input type="hidden" name="member" value={m.user.id} />
                    <button type="submit" className={danger} aria-label={`Remove ${label}`}>
                      Remove
                    </button>
                  </ActionForm>
                </>
              ) : (
                <span className="text-sm text-zinc-600 dark:text-zinc-400">{m.role}</span>
              )}
              {self && soleOwner && (
                <span className="text-xs text-zinc-600 dark:text-zinc-400" data-testid="sole-owner">
                  You are its only owner: make someone else an owner before you leave.
                </span>
              )}
              {self && !soleOwner && (
                <ActionForm action={removeMemberAction}>
                  <input type="hidden" name="team" value={team.slug} />
                  <input type="hidden" name="member" value={m.user.id} />
                  <input type="hidden" name="leave" value="1" />
                  <button type="submit" className={danger}>
                    Leave team
                  </button>
                </ActionForm>
              )}
            </li>
          );
        })}
      </ul>
      {admin && (
        <>
          <h3 className="pt-2 text-sm font-semibold">Invite someone</h3>
          <p className={muted}>An invitation link works once and expires in 7 days. With an email, only the account with that verified email can use it.</p>
          <ActionForm action={inviteAction} className="flex flex-wrap items-end gap-2" secretPrefix={`${origin}/teams/join?code=`} testId="invite-form">
            <input type="hidden" name="team" value={team.slug} />
            <label className="sr-only" htmlFor="invite-email">
              Email (optional)
            </label>
            <input id="invite-email" name="email" type="email" placeholder="email (optional)" className={`${input} min-w-[12rem] flex-1`} />
            <label className="sr-only" htmlFor="invite-role">
              Role
            </label>
            <select id="invite-role" name="role" defaultValue="member" className={input}>
              {ROLES.filter((r) => r !== 'owner' || team.role === 'owner').map((r) => (
                <option key={r}>{r}</option>
              ))}
            </select>
            <button type="submit" className={button}>
              Create invitation link
            </button>
          </ActionForm>
          {ws.invites.length > 0 && (
            <ul className="space-y-1 text-sm" data-testid="pending-invites">
              {ws.invites.map((i) => (
                <li key={i.id} className="flex flex-wrap items-center gap-2">
                  <span className="flex-1">
                    {i.email ?? 'link'} · {i.role} · until {i.expiresAt.toISOString().slice(0, 10)}
                  </span>
                  <ActionForm action={revokeInviteAction}>
                    <input type="hidden" name="team" value={team.slug} />
                    <input type="hidden" name="invite" value={i.id} />
                    <button type="submit" className={quiet}>
                      Withdraw
                    </button>
                  </ActionForm>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}
