// Streamable HTTP MCP endpoint for a chosen set of skills: /api/mcp?skills=@a/b,@c/d
import { mcpRoute } from '@/lib/api';

export const dynamic = 'force-dynamic';

const handler = mcpRoute<Record<string, never>>((req) => new URL(req.url).searchParams.getAll('skills'));

export const GET = handler;
export const POST = handler;
export const DELETE = handler;
