import { NextResponse } from 'next/server';
import { serverContext } from '@/lib/server';
import { withApi, runAccessFrom } from '@/lib/api';
import { cancelRun } from '@/lib/runs';

export const dynamic = 'force-dynamic';

export const POST = withApi<{ id: string }>({ scope: 'runs' }, async ({ req, params, userId }) => {
  await cancelRun(serverContext().db, params.id, runAccessFrom(req, params.id, userId));
  return NextResponse.json({ ok: true });
});
