// DELETE /api/v1/skills/{scope}/{name}/trusted-publishers/{id}: remove a CI publisher (its
// short-lived tokens stop working at once).
import { NextResponse } from 'next/server';
import { z } from 'zod';
import { serverContext } from '@/lib/server';
import { withApi, apiActor } from '@/lib/api';
import { requireUser } from '@/lib/principal';
import { auditScopeAction } from '@/lib/teams';
import { SkillParams } from '@/lib/registry';
import { removeTrustedPublisher } from '@/lib/trusted-publishing';

export const dynamic = 'force-dynamic';

const Params = SkillParams.extend({ id: z.string().min(1).max(64) });

export const DELETE = withApi<{ scope: string; name: string; id: string }>({ scope: 'publish' }, async (ctx) => {
  const userId = requireUser(ctx.principal);
  const ref = Params.parse(ctx.params);
  await removeTrustedPublisher(serverContext().db, ref, userId, ref.id);
  await auditScopeAction(serverContext().db, ref.scope, apiActor(ctx), 'skill.trusted-publisher-remove', `@${ref.scope}/${ref.name}`, { id: ref.id });
  return NextResponse.json({ removed: ref.id });
});
