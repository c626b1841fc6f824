import { NextResponse } from 'next/server';
import { serverContext } from '@/lib/server';
import { withApi, runAccessFrom } from '@/lib/api';
import { getRun } from '@/lib/runs';

export const dynamic = 'force-dynamic';

export const GET = withApi<{ id: string }>({ scope: 'runs' }, async ({ req, params, userId }) => {
  const run = await getRun(serverContext().db, params.id, runAccessFrom(req, params.id, userId));
  return NextResponse.json(run, { headers: { 'Cache-Control': 'no-store' } });
});
