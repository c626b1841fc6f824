import { NextResponse } from 'next/server';
import { z } from 'zod';
import { serverContext } from '@/lib/server';
import { withApi } from '@/lib/api';
import { createRun } from '@/lib/runs';
import { accountKey } from '@/lib/principal';

export const dynamic = 'force-dynamic';

const Body = z.record(z.string(), z.unknown());

export const POST = withApi<Record<string, never>, z.infer<typeof Body>>({ scope: 'runs', body: Body, rateLimit: { cost: 5 } }, async ({ body, userId, principal, caller }) => {
  const run = await createRun(serverContext().db, { config: body, userId, principal: accountKey(principal, caller.ip) });
  return NextResponse.json({ id: run.id, controlToken: run.controlToken, url: `/playground/runs/${run.id}`, events: `/api/v1/runs/${run.id}/events` }, { status: 201 });
});
