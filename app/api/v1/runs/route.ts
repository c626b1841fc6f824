import { NextResponse } from 'next/server';
import { z } from 'zod';
import { serverContext } from '@/lib/server';
import { handleRoute, readJson } from '@/lib/api/handle-route';
import { requireScope } from '@/lib/auth/api-tokens';
import { createRun } from '@/lib/runs/create-run';
import { runPrincipalFor } from '@/lib/runs/run-principal';

export const dynamic = 'force-dynamic';

export const POST = handleRoute(async ({ req, principal }) => {
  requireScope(principal, 'runs');
  const config = await readJson(req, z.record(z.string(), z.unknown()));
  const userId = principal?.userId ?? null;
  const run = await createRun(serverContext().db, { config, userId, principal: runPrincipalFor(req.headers, userId) });
  return NextResponse.json(
    { id: run.id, controlToken: run.controlToken, url: `/playground/runs/${run.id}`, events: `/api/v1/runs/${run.id}/events` },
    { status: 201 },
  );
});
