// DELETE /api/v1/teams/{slug}/invites/{id}: withdraw a pending invitation (admins).
import { serverContext } from '@/lib/server';
import { withApi, teamActor } from '@/lib/api';
import { revokeInvite } from '@/lib/teams';

export const dynamic = 'force-dynamic';

export const DELETE = withApi<{ slug: string; id: string }>({}, async (ctx) => {
  await revokeInvite(serverContext().db, teamActor(ctx), ctx.params.slug, ctx.params.id);
  return new Response(null, { status: 204 });
});
