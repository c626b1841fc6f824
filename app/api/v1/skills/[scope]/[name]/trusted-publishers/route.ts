// GET /api/v1/skills/{scope}/{name}/trusted-publishers: the CI publishers of a skill.
// POST {issuer, claims}: add one. Both for those who may publish the skill.
import { NextResponse } from 'next/server';
import { serverContext } from '@/lib/server';
import { withApi, apiActor } from '@/lib/api';
import { requireUser } from '@/lib/principal';
import { auditScopeAction } from '@/lib/teams';
import { SkillParams } from '@/lib/registry';
import { addTrustedPublisher, listTrustedPublishers, ZTrustedPublisherInput } from '@/lib/trusted-publishing';

export const dynamic = 'force-dynamic';

type P = { scope: string; name: string };

export const GET = withApi<P>({ scope: 'publish' }, async ({ params, principal }) => {
  const userId = requireUser(principal);
  const ref = SkillParams.parse(params);
  return NextResponse.json({ publishers: await listTrustedPublishers(serverContext().db, ref, userId) });
});

export const POST = withApi<P, typeof ZTrustedPublisherInput._output>({ scope: 'publish', body: ZTrustedPublisherInput }, async (ctx) => {
  const userId = requireUser(ctx.principal);
  const ref = SkillParams.parse(ctx.params);
  const added = await addTrustedPublisher(serverContext().db, ref, userId, ctx.body);
  await auditScopeAction(serverContext().db, ref.scope, apiActor(ctx), 'skill.trusted-publisher-add', `@${ref.scope}/${ref.name}`, { issuer: added.issuer, ...added.claims });
  return NextResponse.json(added, { status: 201 });
});
