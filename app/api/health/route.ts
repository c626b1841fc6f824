import { NextResponse } from 'next/server';
import { checkServerHealth, healthStatusCode, serverContext } from '@/lib/server';
import { runWorkerHealth } from '@/lib/runs';
import { withApi } from '@/lib/api';

export const dynamic = 'force-dynamic';

// not rate limited: monitors and load balancers poll it
export const GET = withApi({ rateLimit: false }, async () => {
  const health = await checkServerHealth(serverContext());
  // the run worker's load; its failures (heartbeat, stale check, notify) are in `failures`
  return NextResponse.json({ ...health, runs: runWorkerHealth() }, { status: healthStatusCode(health), headers: { 'Cache-Control': 'no-store' } });
});
