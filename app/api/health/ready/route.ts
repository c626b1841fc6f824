import { NextResponse } from 'next/server';
import { checkReadiness, serverContext } from '@/lib/server';
import { withApi } from '@/lib/api';

export const dynamic = 'force-dynamic';

// readiness for a balancer: 503 while draining, without the database or without LISTEN
export const GET = withApi({ rateLimit: false }, async () => {
  const readiness = await checkReadiness(serverContext());
  return NextResponse.json(readiness, { status: readiness.ready ? 200 : 503, headers: { 'Cache-Control': 'no-store' } });
});
