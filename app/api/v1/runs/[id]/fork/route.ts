import { NextResponse } from 'next/server';
import { z } from 'zod';
import { serverContext } from '@/lib/server';
import { withApi, runAccessFrom } from '@/lib/api';
import { forkRun, ForkVersionsSchema } from '@/lib/runs';
import { accountKey } from '@/lib/principal';

export const dynamic = 'force-dynamic';

// versions: the original's pins (default), the latest of every skill, or one skill moved
const Body = z.object({ task: z.string().min(1).max(20_000).optional(), versions: ForkVersionsSchema.optional() });

export const POST = withApi<{ id: string }, z.infer<typeof Body>>(
  { scope: 'runs', body: Body, rateLimit: { cost: 5 } },
  async ({ req, params, body, userId, principal, caller }) => {
    const access = runAccessFrom(req, params.id, userId);
    const run = await forkRun(serverContext().db, params.id, access, body, accountKey(principal, caller.ip));
    return NextResponse.json({ id: run.id, controlToken: run.controlToken, url: `/playground/runs/${run.id}` }, { status: 201 });
  },
);
