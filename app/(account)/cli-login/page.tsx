import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { API_TOKEN_SCOPES, normalizeUserCode } from '@/lib/auth';
import { currentUser } from '@/lib/session';
import { CliLoginForm } from './cli-login-form';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Sign in the CLI' };

export default async function CliLoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const code = typeof params.code === 'string' ? (normalizeUserCode(params.code) ?? '') : '';
  const user = await currentUser();
  if (!user) redirect(`/signin?next=${encodeURIComponent(`/cli-login${code ? `?code=${code}` : ''}`)}`);
  return (
    <div className="mx-auto max-w-md space-y-6 py-8">
      <header className="space-y-2">
        <h1 className="text-2xl font-semibold tracking-tight">Sign in the Skillyard CLI</h1>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Confirm only a code that <code>skillyard login</code> printed in your own terminal. The CLI gets an API token of @{user.handle ?? user.name} with the scopes you pick,
          valid 90 days; revoke it any time in Settings.
        </p>
      </header>
      <CliLoginForm code={code} scopes={API_TOKEN_SCOPES} />
    </div>
  );
}
