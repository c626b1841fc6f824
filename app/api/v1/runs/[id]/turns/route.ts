import { NextResponse } from 'next/server';
import { z } from 'zod';
import { serverContext } from '@/lib/server';
import { withApi, runAccessFrom } from '@/lib/api';
import { submitManualTurn } from '@/lib/runs';

export const dynamic = 'force-dynamic';

const Body = z.object({ turn: z.unknown() });

export const POST = withApi<{ id: string }, z.infer<typeof Body>>({ scope: 'runs', body: Body }, async ({ req, params, body, userId }) => {
  await submitManualTurn(serverContext().db, params.id, runAccessFrom(req, params.id, userId), body.turn ?? null);
  return NextResponse.json({ ok: true });
});
