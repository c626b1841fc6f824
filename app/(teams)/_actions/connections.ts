'use server';
// Team connections: an admin connects an OAuth provider for the team (the provider round
// trip of identity's connect flow, with a short-lived cookie that tells the callback the
// tokens are the team's; lib/teams/team-connect-intent.ts), or disconnects it.
import { cookies, headers } from 'next/headers';
import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { AuthError } from 'next-auth';
import { z } from 'zod';
import { signIn } from '@/lib/session';
import { providersFromEnv, scopesToRequest, type ProviderSpec } from '@/lib/auth';
import { AppError } from '@/lib/errors';
import { teamAction, type TeamActionState as ActionState } from '@/lib/actions';
import { TEAM_CONNECT_COOKIE, TEAM_CONNECT_TTL_S, encodeTeamConnectIntent, removeTeamConnection, teamForActor } from '@/lib/teams';

const ProviderId = z.string().regex(/^[a-z][a-z0-9-]{0,31}$/);
const Scopes = z.array(z.string().regex(/^[\w:./-]{1,100}$/)).max(20);

export async function connectTeamAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const slug = String(form.get('team') ?? '');
  const id = ProviderId.safeParse(form.get('provider'));
  const scopes = Scopes.safeParse(
    String(form.get('scopes') ?? '')
      .split(/[\s,]+/)
      .filter(Boolean),
  );
  let spec: ProviderSpec | undefined;
  // the origin check (in teamAction) comes before anything else, bad input included
  const state = await teamAction(async (db, actor) => {
    spec = id.success ? providersFromEnv().find((p) => p.id === id.data) : undefined;
    if (!spec) throw new AppError('input/invalid', 'That provider is not configured on this server.');
    if (!scopes.success) throw new AppError('input/invalid', 'Scopes are words like api:read, separated by spaces (at most 20).');
    const team = await teamForActor(db, slug, actor, 'admin');
    const proto = (await headers()).get('x-forwarded-proto')?.split(',')[0]?.trim() ?? 'http';
    (await cookies()).set(TEAM_CONNECT_COOKIE, encodeTeamConnectIntent(team.slug, team.userId), {
      httpOnly: true,
      sameSite: 'lax',
      path: '/',
      secure: proto === 'https',
      maxAge: TEAM_CONNECT_TTL_S,
    });
  });
  if (!state.ok || !spec || !scopes.success) return state;
  try {
    await signIn(spec.id, { redirectTo: `/teams/${slug}` }, { scope: scopesToRequest(spec, scopes.data).join(' ') });
  } catch (err) {
    if (err instanceof AuthError) redirect(`/signin/error?error=${encodeURIComponent(err.type)}`);
    throw err;
  }
  return state;
}

export async function disconnectTeamAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const slug = String(form.get('team') ?? '');
  const state = await teamAction((db, actor) => removeTeamConnection(db, actor, slug, String(form.get('provider') ?? '')));
  if (state.ok) revalidatePath(`/teams/${slug}`);
  return { ...state, message: state.ok ? 'Disconnected.' : null };
}
