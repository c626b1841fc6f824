import { NextResponse } from 'next/server';
import { serverContext } from '@/lib/server';
import { handleRoute } from '@/lib/api/handle-route';
import { runAccessFrom } from '@/lib/api/run-access';
import { getRun } from '@/lib/runs/get-run';

export const dynamic = 'force-dynamic';

export const GET = handleRoute<{ id: string }>(async ({ req, params, principal }) => {
  const run = await getRun(serverContext().db, params.id, runAccessFrom(req, params.id, principal));
  return NextResponse.json(run, { headers: { 'Cache-Control': 'no-store' } });
});
