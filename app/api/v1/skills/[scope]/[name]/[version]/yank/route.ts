// POST /api/v1/skills/{scope}/{name}/{version}/yank {reason?, undo?}: yank (or unyank)
// an exact version; it stays downloadable by number, out of ranges and listings.
import { NextResponse } from 'next/server';
import { z } from 'zod';
import { serverContext } from '@/lib/server';
import { handleRoute, readJson } from '@/lib/api/handle-route';
import { yankVersion } from '@/lib/registry/yank-version';
import { requireTokenScope, VersionParams } from '@/lib/registry/skill-route-params';

export const dynamic = 'force-dynamic';

const Body = z.object({ reason: z.string().max(500).optional(), undo: z.boolean().optional() });

export const POST = handleRoute<{ scope: string; name: string; version: string }>(async ({ req, params, principal }) => {
  const caller = requireTokenScope(principal, 'publish');
  const ref = VersionParams.parse(params);
  const body = await readJson(req, Body);
  return NextResponse.json(await yankVersion(serverContext().db, { ...ref, userId: caller.userId, reason: body.reason, undo: body.undo }));
});
