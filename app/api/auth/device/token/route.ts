// POST /api/auth/device/token {deviceCode}: the CLI's poll. 202 while the person has not
// confirmed yet; 200 with the API token exactly once; 400 when denied or expired.
import { NextResponse } from 'next/server';
import { z } from 'zod';
import { withApi } from '@/lib/api';
import { pollDeviceLogin } from '@/lib/auth';
import { serverContext } from '@/lib/server';

export const dynamic = 'force-dynamic';

const Body = z.object({ deviceCode: z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, 'deviceCode is the code `POST /api/auth/device` returned') });

export const POST = withApi<Record<string, never>, z.infer<typeof Body>>({ body: Body }, async ({ body }) => {
  const poll = await pollDeviceLogin(serverContext().db, body.deviceCode);
  if (poll.status === 'pending') return NextResponse.json({ status: 'pending' }, { status: 202, headers: { 'cache-control': 'no-store' } });
  return NextResponse.json({ status: 'approved', token: poll.token, handle: poll.handle }, { headers: { 'cache-control': 'no-store' } });
});
