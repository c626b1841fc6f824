import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { currentUser } from '@/lib/session';
import { forSignedInUser } from '@/lib/actions';
import { isAppError } from '@/lib/errors';
import { previewInvite, type InvitePreview } from '@/lib/teams';
import { acceptInviteAction } from '../../_actions/members';
import { ActionForm } from '../../_components/action-form';
import { button, muted } from '../../_components/styles';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Join a team', robots: { index: false } };

/** The invitation as the signed-in viewer sees it, or why it cannot be accepted. */
async function readInvite(code: string): Promise<InvitePreview | { error: string }> {
  try {
    const out = await forSignedInUser((db, actor) => previewInvite(db, actor.principal.kind === 'user' ? actor.principal.userId : '', code));
    return out ?? { error: 'Sign in first.' };
  } catch (err) {
    if (isAppError(err)) return { error: err.message };
    throw err;
  }
}

export default async function JoinPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const code = String((await searchParams).code ?? '').slice(0, 100);
  if (!(await currentUser())) redirect(`/signin?next=${encodeURIComponent(`/teams/join?code=${code}`)}`);
  const invite = await readInvite(code);
  return (
    <div className="mx-auto max-w-md space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">Join a team</h1>
      {'error' in invite ? (
        <div className="space-y-3">
          <p
            role="alert"
            data-testid="invite-error"
            className="rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-900 dark:border-red-900 dark:bg-red-950/40 dark:text-red-200"
          >
            {invite.error}
          </p>
          <p className={muted}>
            Ask a team admin for a new link, or go to{' '}
            <Link href="/teams" className="underline">
              your teams
            </Link>
            .
          </p>
        </div>
      ) : (
        <>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 rounded-xl border border-zinc-200 p-4 text-sm dark:border-zinc-800" data-testid="invite-details">
            <dt className="text-zinc-600 dark:text-zinc-400">Team</dt>
            <dd className="min-w-0 break-words font-medium">
              {invite.team.name} <span className="font-normal text-zinc-600 dark:text-zinc-400">(@{invite.team.slug})</span>
            </dd>
            <dt className="text-zinc-600 dark:text-zinc-400">Role</dt>
            <dd>{invite.role}</dd>
            <dt className="text-zinc-600 dark:text-zinc-400">Invited by</dt>
            <dd className="min-w-0 break-words">{invite.invitedBy ?? 'a former member'}</dd>
            <dt className="text-zinc-600 dark:text-zinc-400">Valid until</dt>
            <dd>{invite.expiresAt.toISOString().slice(0, 16).replace('T', ' ')} UTC</dd>
          </dl>
          {invite.wrongAccount ? (
            <p
              role="alert"
              data-testid="invite-error"
              className="rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-900 dark:border-red-900 dark:bg-red-950/40 dark:text-red-200"
            >
              {invite.wrongAccount}
            </p>
          ) : (
            <>
              <p className={muted}>
                {invite.alreadyMember
                  ? `You are already in ${invite.team.name}; accepting keeps your current role.`
                  : `Accepting adds you to ${invite.team.name} as ${invite.role}.`}
              </p>
              <ActionForm action={acceptInviteAction} className="space-y-3" testId="accept-invite-form">
                <input type="hidden" name="code" value={code} />
                <button type="submit" className={button}>
                  Accept invitation
                </button>
              </ActionForm>
            </>
          )}
        </>
      )}
    </div>
  );
}
