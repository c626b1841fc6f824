import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { currentUser } from '@/lib/session';
import { createTeamAction } from '../../_actions/team';
import { ActionForm } from '../../_components/action-form';
import { button, input, muted } from '../../_components/styles';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'New team' };

export default async function NewTeamPage() {
  if (!(await currentUser())) redirect('/signin?next=/teams/new');
  return (
    <div className="mx-auto max-w-md space-y-6">
      <header className="space-y-2">
        <h1 className="text-2xl font-semibold tracking-tight">Create a team</h1>
        <p className={muted}>
          The team&apos;s name is its scope: its skills are <code>@name/skill</code>. It cannot be changed later; the display name can.
        </p>
      </header>
      <ActionForm action={createTeamAction} className="space-y-3" testId="new-team-form">
        <label className="block text-sm font-medium" htmlFor="slug">
          Team name (scope)
        </label>
        <input id="slug" name="slug" required minLength={2} maxLength={39} pattern="[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){1,38}" className={`${input} w-full`} placeholder="acme" />
        <label className="block text-sm font-medium" htmlFor="name">
          Display name
        </label>
        <input id="name" name="name" maxLength={100} className={`${input} w-full`} placeholder="Acme Inc." />
        <button type="submit" className={button}>
          Create team
        </button>
      </ActionForm>
    </div>
  );
}
