// Streamable HTTP MCP endpoint for one skill: /api/mcp/<scope>/<name>
import { mcpRoute } from '@/lib/api';

export const dynamic = 'force-dynamic';

const handler = mcpRoute<{ scope: string; name: string }>((_req, { scope, name }) => [`@${decodeURIComponent(scope).replace(/^@/, '')}/${decodeURIComponent(name)}`]);

export const GET = handler;
export const POST = handler;
export const DELETE = handler;
