import { NextResponse } from 'next/server';
import { z } from 'zod';
import { withApi } from '@/lib/api';
import { invokeRegistryTool, serverContext } from '@/lib/server';
import { accountOf, visitorIdOf } from '@/lib/principal';

export const dynamic = 'force-dynamic';

const Body = z.object({
  args: z.unknown().optional(),
  skill: z.string().max(200).optional(),
});

const ToolName = z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'a tool name is lowercase letters, digits and "-"');

export const POST = withApi<{ name: string }, z.infer<typeof Body>>({ scope: 'invoke', body: Body }, async ({ params, body, userId, principal, caller }) => {
  const tool = ToolName.parse(params.name);
  const out = await invokeRegistryTool(serverContext(), {
    tool,
    skill: body.skill,
    args: body.args ?? {},
    userId,
    visitorId: visitorIdOf(principal),
    ip: caller.ip,
    account: accountOf(principal),
  });
  return NextResponse.json(out);
});
