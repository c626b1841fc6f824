// PUT /api/v1/skills/{scope}/{name}/dist-tags/{tag} {version}: point a tag at a version.
// DELETE: remove the tag (not `latest`).
import { NextResponse } from 'next/server';
import { z } from 'zod';
import { serverContext } from '@/lib/server';
import { handleRoute, readJson } from '@/lib/api/handle-route';
import { setDistTag } from '@/lib/registry/set-dist-tag';
import { requireTokenScope, SkillParams } from '@/lib/registry/skill-route-params';

export const dynamic = 'force-dynamic';

type P = { scope: string; name: string; tag: string };
const Params = SkillParams.extend({ tag: z.string().min(1).max(32) });

export const PUT = handleRoute<P>(async ({ req, params, principal }) => {
  const caller = requireTokenScope(principal, 'publish');
  const ref = Params.parse(params);
  const { version } = await readJson(req, z.object({ version: z.string().min(1).max(64) }));
  return NextResponse.json(await setDistTag(serverContext().db, { ...ref, version, userId: caller.userId }));
});

export const DELETE = handleRoute<P>(async ({ params, principal }) => {
  const caller = requireTokenScope(principal, 'publish');
  const ref = Params.parse(params);
  return NextResponse.json(await setDistTag(serverContext().db, { ...ref, version: null, userId: caller.userId }));
});
