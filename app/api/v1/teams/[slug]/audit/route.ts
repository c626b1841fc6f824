// GET /api/v1/teams/{slug}/audit?before=<ISO time>&limit=<n>: the audit log (admins).
import { NextResponse } from 'next/server';
import { serverContext } from '@/lib/server';
import { withApi, teamActor } from '@/lib/api';
import { AppError } from '@/lib/errors';
import { listAudit } from '@/lib/teams';

export const dynamic = 'force-dynamic';

export const GET = withApi<{ slug: string }>({}, async (ctx) => {
  const q = new URL(ctx.req.url).searchParams;
  const before = q.get('before') ? new Date(q.get('before')!) : undefined;
  if (before && Number.isNaN(before.getTime())) throw new AppError('input/invalid', 'before is an ISO date-time.');
  const events = await listAudit(serverContext().db, teamActor(ctx), ctx.params.slug, { before, limit: Number(q.get('limit') ?? 50) || 50 });
  return NextResponse.json({ events });
});
