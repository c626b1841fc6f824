// Streamable HTTP MCP endpoint for one skill: /api/mcp/<scope>/<name>
import { handleMcpRoute } from '@/lib/api/mcp-route';

export const dynamic = 'force-dynamic';

type Ctx = { params: Promise<{ scope: string; name: string }> };
const skillOf = async (ctx: Ctx) => {
  const { scope, name } = await ctx.params;
  return [`@${decodeURIComponent(scope).replace(/^@/, '')}/${decodeURIComponent(name)}`];
};

export const GET = async (req: Request, ctx: Ctx) => handleMcpRoute(req, await skillOf(ctx));
export const POST = async (req: Request, ctx: Ctx) => handleMcpRoute(req, await skillOf(ctx));
export const DELETE = async (req: Request, ctx: Ctx) => handleMcpRoute(req, await skillOf(ctx));
