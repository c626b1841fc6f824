// PUT /api/v1/skills/{scope}/{name}/dist-tags/{tag} {version}: point a tag at a version.
// DELETE: remove the tag (not `latest`).
import { NextResponse } from 'next/server';
import { z } from 'zod';
import { serverContext } from '@/lib/server';
import { withApi, apiActor } from '@/lib/api';
import { auditScopeAction } from '@/lib/teams';
import { setDistTag, SkillParams } from '@/lib/registry';
import { requireUser } from '@/lib/principal';

export const dynamic = 'force-dynamic';

type P = { scope: string; name: string; tag: string };
const Params = SkillParams.extend({ tag: z.string().min(1).max(32) });

const Body = z.object({ version: z.string().min(1).max(64) });

export const PUT = withApi<P, z.infer<typeof Body>>({ scope: 'publish', body: Body }, async (ctx) => {
  const { params, body, principal } = ctx;
  const userId = requireUser(principal);
  const ref = Params.parse(params);
  const out = await setDistTag(serverContext().db, { ...ref, version: body.version, userId });
  await auditScopeAction(serverContext().db, ref.scope, apiActor(ctx), 'skill.tag', `@${ref.scope}/${ref.name}`, { tag: ref.tag, version: body.version });
  return NextResponse.json(out);
});

export const DELETE = withApi<P>({ scope: 'publish' }, async (ctx) => {
  const { params, principal } = ctx;
  const userId = requireUser(principal);
  const ref = Params.parse(params);
  const out = await setDistTag(serverContext().db, { ...ref, version: null, userId });
  await auditScopeAction(serverContext().db, ref.scope, apiActor(ctx), 'skill.untag', `@${ref.scope}/${ref.name}`, { tag: ref.tag });
  return NextResponse.json(out);
});
