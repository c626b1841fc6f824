// GET /api/v1/skills/{scope}/{name}/{version}: one version (an exact number, a dist-tag
// or a range). DELETE: delete that exact version (its number is never reused).
import { NextResponse } from 'next/server';
import { serverContext } from '@/lib/server';
import { withApi, apiActor } from '@/lib/api';
import { auditScopeAction } from '@/lib/teams';
import { getSkill, deleteVersion, VersionParams } from '@/lib/registry';
import { requireUser } from '@/lib/principal';

export const dynamic = 'force-dynamic';

type P = { scope: string; name: string; version: string };

export const GET = withApi<P>({}, async ({ params, userId }) => {
  const ref = VersionParams.parse(params);
  return NextResponse.json(await getSkill(serverContext().db, ref, userId ? { userId } : null));
});

export const DELETE = withApi<P>({ scope: 'publish' }, async (ctx) => {
  const { params, principal } = ctx;
  const userId = requireUser(principal);
  const ref = VersionParams.parse(params);
  const out = await deleteVersion(serverContext().db, { ...ref, userId });
  await auditScopeAction(serverContext().db, ref.scope, apiActor(ctx), 'skill.delete-version', `@${ref.scope}/${ref.name}@${ref.version}`);
  return NextResponse.json({ deleted: ref.version, ...out });
});
