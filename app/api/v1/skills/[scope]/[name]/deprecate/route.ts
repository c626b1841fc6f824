// POST /api/v1/skills/{scope}/{name}/deprecate {range, message}: deprecate the versions
// a range matches; an empty message takes the deprecation back.
import { NextResponse } from 'next/server';
import { z } from 'zod';
import { serverContext } from '@/lib/server';
import { handleRoute, readJson } from '@/lib/api/handle-route';
import { deprecateVersion } from '@/lib/registry/deprecate-version';
import { requireTokenScope, SkillParams } from '@/lib/registry/skill-route-params';

export const dynamic = 'force-dynamic';

const Body = z.object({ range: z.string().min(1).max(64), message: z.string().max(1000) });

export const POST = handleRoute<{ scope: string; name: string }>(async ({ req, params, principal }) => {
  const caller = requireTokenScope(principal, 'publish');
  const ref = SkillParams.parse(params);
  const body = await readJson(req, Body);
  return NextResponse.json(await deprecateVersion(serverContext().db, { ...ref, ...body, userId: caller.userId }));
});
