// GET /api/v1/skills/{scope}/{name}/{version}: one version (an exact number, a dist-tag
// or a range). DELETE: delete that exact version (its number is never reused).
import { NextResponse } from 'next/server';
import { serverContext } from '@/lib/server';
import { handleRoute } from '@/lib/api/handle-route';
import { getSkill } from '@/lib/registry/get-skill';
import { deleteVersion } from '@/lib/registry/delete-version';
import { requireTokenScope, VersionParams } from '@/lib/registry/skill-route-params';

export const dynamic = 'force-dynamic';

type P = { scope: string; name: string; version: string };

export const GET = handleRoute<P>(async ({ params, principal }) => {
  const ref = VersionParams.parse(params);
  return NextResponse.json(await getSkill(serverContext().db, ref, principal ? { userId: principal.userId } : null));
});

export const DELETE = handleRoute<P>(async ({ params, principal }) => {
  const caller = requireTokenScope(principal, 'publish');
  const ref = VersionParams.parse(params);
  const out = await deleteVersion(serverContext().db, { ...ref, userId: caller.userId });
  return NextResponse.json({ deleted: ref.version, ...out });
});
