// POST /api/v1/skills/{scope}/{name}/{version}/yank {reason?, undo?}: yank (or unyank)
// an exact version; it stays downloadable by number, out of ranges and listings.
import { NextResponse } from 'next/server';
import { z } from 'zod';
import { serverContext } from '@/lib/server';
import { withApi, apiActor } from '@/lib/api';
import { auditScopeAction } from '@/lib/teams';
import { yankVersion, VersionParams } from '@/lib/registry';
import { requireUser } from '@/lib/principal';

export const dynamic = 'force-dynamic';

const Body = z.object({ reason: z.string().max(500).optional(), undo: z.boolean().optional() });

export const POST = withApi<{ scope: string; name: string; version: string }, z.infer<typeof Body>>({ scope: 'publish', body: Body }, async (ctx) => {
  const { params, body, principal } = ctx;
  const userId = requireUser(principal);
  const ref = VersionParams.parse(params);
  const out = await yankVersion(serverContext().db, { ...ref, userId, reason: body.reason, undo: body.undo });
  await auditScopeAction(serverContext().db, ref.scope, apiActor(ctx), body.undo ? 'skill.unyank' : 'skill.yank', `@${ref.scope}/${ref.name}@${ref.version}`, body.reason ? { reason: body.reason } : undefined);
  return NextResponse.json(out);
});
