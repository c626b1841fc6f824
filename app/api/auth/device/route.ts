// POST /api/auth/device: `skillyard login` starts here (device flow). Anonymous, rate
// limited per address like every API route (a start costs more than a read).
import { NextResponse } from 'next/server';
import { withApi } from '@/lib/api';
import { DEVICE_POLL_INTERVAL_S, startDeviceLogin, requestWithHostUrl } from '@/lib/auth';
import { serverContext } from '@/lib/server';

export const dynamic = 'force-dynamic';

export const POST = withApi({ rateLimit: { cost: 5 } }, async ({ req }) => {
  const { deviceCode, userCode, expiresAt } = await startDeviceLogin(serverContext().db);
  // the origin the CLI reached (127.0.0.1 stays 127.0.0.1: the browser must land where it signed in)
  const origin = new URL(requestWithHostUrl(req.url, req.headers)).origin;
  return NextResponse.json(
    {
      deviceCode,
      userCode,
      verificationUri: `${origin}/cli-login`,
      verificationUriComplete: `${origin}/cli-login?code=${encodeURIComponent(userCode)}`,
      interval: DEVICE_POLL_INTERVAL_S,
      expiresIn: Math.round((expiresAt.getTime() - Date.now()) / 1000),
    },
    { headers: { 'cache-control': 'no-store' } },
  );
});
