import { NextResponse } from 'next/server';
import { z } from 'zod';
import { serverContext } from '@/lib/server';
import { handleRoute, readJson } from '@/lib/api/handle-route';
import { requireScope } from '@/lib/auth/api-tokens';
import { runAccessFrom } from '@/lib/api/run-access';
import { forkRun } from '@/lib/runs/fork-run';
import { runPrincipalFor } from '@/lib/runs/run-principal';

export const dynamic = 'force-dynamic';

const Body = z.object({ task: z.string().min(1).max(20_000).optional() });

export const POST = handleRoute<{ id: string }>(async ({ req, params, principal }) => {
  requireScope(principal, 'runs');
  const body = await readJson(req, Body);
  const access = runAccessFrom(req, params.id, principal);
  const run = await forkRun(serverContext().db, params.id, access, body, runPrincipalFor(req.headers, access.userId));
  return NextResponse.json({ id: run.id, controlToken: run.controlToken, url: `/playground/runs/${run.id}` }, { status: 201 });
});
