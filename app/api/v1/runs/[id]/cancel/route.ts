import { NextResponse } from 'next/server';
import { serverContext } from '@/lib/server';
import { withApi } from '@/lib/api/with-api';
import { runAccessFrom } from '@/lib/api/run-access';
import { cancelRun } from '@/lib/runs';

export const dynamic = 'force-dynamic';

export const POST = withApi<{ id: string }>({ scope: 'runs' }, async ({ req, params, userId }) => {
  await cancelRun(serverContext().db, params.id, runAccessFrom(req, params.id, userId));
  return NextResponse.json({ ok: true });
});
