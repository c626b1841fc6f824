// Streamable HTTP MCP endpoint for a chosen set of skills: /api/mcp?skills=@a/b,@c/d
import { handleMcpRoute } from '@/lib/api/mcp-route';

export const dynamic = 'force-dynamic';

const skillsOf = (req: Request) => new URL(req.url).searchParams.getAll('skills');

export const GET = (req: Request) => handleMcpRoute(req, skillsOf(req));
export const POST = (req: Request) => handleMcpRoute(req, skillsOf(req));
export const DELETE = (req: Request) => handleMcpRoute(req, skillsOf(req));
