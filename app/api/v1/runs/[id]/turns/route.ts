import { NextResponse } from 'next/server';
import { z } from 'zod';
import { serverContext } from '@/lib/server';
import { handleRoute, readJson } from '@/lib/api/handle-route';
import { runAccessFrom } from '@/lib/api/run-access';
import { submitManualTurn } from '@/lib/runs/control-run';

export const dynamic = 'force-dynamic';

const Body = z.object({ turn: z.unknown() });

export const POST = handleRoute<{ id: string }>(async ({ req, params, principal }) => {
  const body = await readJson(req, Body);
  await submitManualTurn(serverContext().db, params.id, runAccessFrom(req, params.id, principal), body.turn ?? null);
  return NextResponse.json({ ok: true });
});
