import { NextResponse } from 'next/server';
import { z } from 'zod';
import { handleRoute, readJson } from '@/lib/api/handle-route';
import { requireScope } from '@/lib/auth/api-tokens';
import { invokeRegistryTool } from '@/lib/registry/invoke-registry-tool';
import { serverContext } from '@/lib/server';

export const dynamic = 'force-dynamic';

const Body = z.object({
  args: z.unknown().optional(),
  skill: z.string().max(200).optional(),
});

const ToolName = z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'a tool name is lowercase letters, digits and "-"');

export const POST = handleRoute<{ name: string }>(async ({ req, params, principal }) => {
  requireScope(principal, 'invoke');
  const tool = ToolName.parse(params.name);
  const body = await readJson(req, Body);
  const out = await invokeRegistryTool(serverContext(), { tool, skill: body.skill, args: body.args ?? {}, userId: principal?.userId ?? null });
  return NextResponse.json(out);
});
