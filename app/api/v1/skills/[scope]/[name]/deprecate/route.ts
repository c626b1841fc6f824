// POST /api/v1/skills/{scope}/{name}/deprecate {range, message}: deprecate the versions
// a range matches; an empty message takes the deprecation back.
import { NextResponse } from 'next/server';
import { z } from 'zod';
import { serverContext } from '@/lib/server';
import { withApi, apiActor } from '@/lib/api';
import { auditScopeAction } from '@/lib/teams';
import { deprecateVersion, SkillParams } from '@/lib/registry';
import { requireUser } from '@/lib/principal';

export const dynamic = 'force-dynamic';

const Body = z.object({ range: z.string().min(1).max(64), message: z.string().max(1000) });

export const POST = withApi<{ scope: string; name: string }, z.infer<typeof Body>>({ scope: 'publish', body: Body }, async (ctx) => {
  const { params, body, principal } = ctx;
  const userId = requireUser(principal);
  const ref = SkillParams.parse(params);
  const out = await deprecateVersion(serverContext().db, { ...ref, ...body, userId });
  await auditScopeAction(serverContext().db, ref.scope, apiActor(ctx), 'skill.deprecate', `@${ref.scope}/${ref.name}@${body.range}`, { message: body.message });
  return NextResponse.json(out);
});
