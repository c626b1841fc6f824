import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { currentUser } from '@/lib/auth/current-user';
import { acceptInviteAction } from '../../_actions/members';
import { ActionForm } from '../../_components/action-form';
import { button, muted } from '../../_components/styles';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Join a team', robots: { index: false } };

export default async function JoinPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const code = String((await searchParams).code ?? '').slice(0, 100);
  if (!(await currentUser())) redirect(`/signin?next=${encodeURIComponent(`/teams/join?code=${code}`)}`);
  return (
    <div className="mx-auto max-w-md space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">Join a team</h1>
      <p className={muted}>You were invited to a team on Skillyard. Accepting adds you with the role the invitation names.</p>
      <ActionForm action={acceptInviteAction} className="space-y-3" testId="accept-invite-form">
        <input type="hidden" name="code" value={code} />
        <button type="submit" className={button}>
          Accept invitation
        </button>
      </ActionForm>
    </div>
  );
}
