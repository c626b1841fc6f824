'use server';
// Connect (incremental consent: the provider's scopes plus those the chosen tools need)
// and disconnect an OAuth provider. Connecting while signed in links the provider
// account to this user; Auth.js refuses an account that belongs to someone else.
import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { AuthError } from 'next-auth';
import { z } from 'zod';
import { signIn } from '@/lib/auth/auth';
import { currentUser } from '@/lib/auth/current-user';
import { disconnect, listConnections } from '@/lib/auth/oauth-connections';
import { providersFromEnv, scopesToRequest } from '@/lib/auth/provider-config';
import { safeLocalPath } from '@/lib/auth/safe-redirect';
import { assertSameOrigin } from '@/lib/auth/same-origin';
import { serverContext } from '@/lib/server';

const ProviderId = z.string().regex(/^[a-z][a-z0-9-]{0,31}$/);
const Scope = z.string().regex(/^[\w:./-]{1,100}$/);

export async function connectProvider(form: FormData): Promise<void> {
  await assertSameOrigin();
  const id = ProviderId.safeParse(form.get('provider'));
  const spec = id.success ? providersFromEnv().find((p) => p.id === id.data) : undefined;
  if (!spec) redirect('/signin/error?error=Configuration');
  const requested = String(form.get('scopes') ?? '')
    .split(/[\s,]+/)
    .filter(Boolean)
    .slice(0, 20);
  const scopes = z.array(Scope).safeParse(requested);
  if (!scopes.success) redirect('/signin/error?error=OAuthSignInError');
  const next = safeLocalPath(form.get('next'));
  const user = await currentUser();
  const redirectTo = user?.handle ? next : `/welcome?next=${encodeURIComponent(next)}`;
  // the new token replaces the old one: ask again for what was granted before, or the
  // tools it unlocked would lock (providers that do not add up grants by themselves)
  const granted = user ? ((await listConnections(serverContext().db, user.id)).find((c) => c.provider === spec.id)?.claims ?? []) : [];
  try {
    await signIn(spec.id, { redirectTo }, { scope: scopesToRequest(spec, [...granted, ...scopes.data]).join(' ') });
  } catch (err) {
    if (err instanceof AuthError) redirect(`/signin/error?error=${encodeURIComponent(err.type)}`);
    throw err;
  }
}

export async function disconnectProvider(form: FormData): Promise<void> {
  await assertSameOrigin();
  const user = await currentUser();
  if (!user) redirect('/signin');
  const id = ProviderId.safeParse(form.get('provider'));
  if (id.success) await disconnect(serverContext().db, user.id, id.data);
  const next = safeLocalPath(form.get('next'), '/settings');
  revalidatePath(next);
  redirect(next);
}
