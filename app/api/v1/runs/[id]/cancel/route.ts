import { NextResponse } from 'next/server';
import { serverContext } from '@/lib/server';
import { handleRoute } from '@/lib/api/handle-route';
import { runAccessFrom } from '@/lib/api/run-access';
import { cancelRun } from '@/lib/runs/control-run';

export const dynamic = 'force-dynamic';

export const POST = handleRoute<{ id: string }>(async ({ req, params, principal }) => {
  await cancelRun(serverContext().db, params.id, runAccessFrom(req, params.id, principal));
  return NextResponse.json({ ok: true });
});
