'use server';
// Connect (incremental consent: the provider's scopes plus those the chosen tools need)
// and disconnect an OAuth provider. Connecting while signed in links the provider
// account to this user; Auth.js refuses an account that belongs to someone else.
import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { AuthError } from 'next-auth';
import { z } from 'zod';
import { actionError, serverAction } from '@/lib/actions';
import { signIn } from '@/lib/session';
import { disconnect, listConnections, providersFromEnv, scopesToRequest, safeLocalPath } from '@/lib/auth';

const ProviderId = z.string().regex(/^[a-z][a-z0-9-]{0,31}$/);
const Scope = z.string().regex(/^[\w:./-]{1,100}$/);

const ConnectInput = z.object({ provider: ProviderId, scopes: z.array(Scope), next: z.string() });

// a Connect button is also a sign-in button: no session needed (Auth.js links to the signed-in user only)
const connect = serverAction({ name: 'connect a provider', input: ConnectInput }, async ({ provider, scopes, next }, { db, user }) => {
  const spec = providersFromEnv().find((p) => p.id === provider);
  if (!spec) redirect('/signin/error?error=Configuration');
  const redirectTo = user?.handle ? next : `/welcome?next=${encodeURIComponent(next)}`;
  // the new token replaces the old one: ask again for what was granted before, or the
  // tools it unlocked would lock (providers that do not add up grants by themselves)
  const granted = user ? ((await listConnections(db, user.id)).find((c) => c.provider === spec.id)?.claims ?? []) : [];
  try {
    await signIn(spec.id, { redirectTo }, { scope: scopesToRequest(spec, [...granted, ...scopes]).join(' ') });
  } catch (err) {
    if (err instanceof AuthError) redirect(`/signin/error?error=${encodeURIComponent(err.type)}`);
    throw err;
  }
});

export async function connectProvider(form: FormData): Promise<void> {
  const scopes = String(form.get('scopes') ?? '')
    .split(/[\s,]+/)
    .filter(Boolean)
    .slice(0, 20);
  const state = await connect({ provider: form.get('provider'), scopes, next: safeLocalPath(form.get('next')) });
  if (state.ok) return;
  // the sign-in error page explains these; anything else (another site's form) is an error
  if (state.code === 'input/invalid') redirect(`/signin/error?error=${state.field === 'scopes' ? 'OAuthSignInError' : 'Configuration'}`);
  throw actionError(state);
}

const disconnectOne = serverAction(
  { name: 'disconnect a provider', input: z.object({ provider: z.unknown(), next: z.string() }), signedIn: { redirectTo: '/signin' } },
  async ({ provider, next }, { db, user }) => {
    const id = ProviderId.safeParse(provider);
    if (id.success) await disconnect(db, user.id, id.data);
    revalidatePath(next);
    redirect(next);
  },
);

export async function disconnectProvider(form: FormData): Promise<void> {
  const state = await disconnectOne({ provider: form.get('provider'), next: safeLocalPath(form.get('next'), '/settings') });
  if (!state.ok) throw actionError(state);
}
