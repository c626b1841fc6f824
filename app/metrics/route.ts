import crypto from 'node:crypto';
import { NextResponse } from 'next/server';
import { registerServerMetrics, serverContext } from '@/lib/server';
import { renderMetrics } from '@/lib/metrics';

export const dynamic = 'force-dynamic';

function sameToken(given: string, expected: string): boolean {
  const a = crypto.createHash('sha256').update(given).digest();
  const b = crypto.createHash('sha256').update(expected).digest();
  return crypto.timingSafeEqual(a, b);
}

function refuse(status: number, code: string, message: string): Response {
  const headers: Record<string, string> = { 'Cache-Control': 'no-store' };
  if (status === 401) headers['WWW-Authenticate'] = 'Bearer realm="metrics"';
  return NextResponse.json({ error: { code, message } }, { status, headers });
}

// Prometheus scrapes with its own bearer token (SKILLYARD_METRICS_TOKEN), not a user's API
// token, so this route does not go through withApi (which would read the Authorization
// header as an API token). Off, with 404, until the operator sets the token.
export async function GET(req: Request): Promise<Response> {
  const server = serverContext();
  const expected = server.config.metricsToken;
  if (!expected) return refuse(404, 'metrics/off', 'Metrics are off; set SKILLYARD_METRICS_TOKEN to turn them on.');
  const auth = req.headers.get('authorization') ?? '';
  const given = auth.toLowerCase().startsWith('bearer ') ? auth.slice(7).trim() : '';
  if (!given || !sameToken(given, expected)) return refuse(401, 'metrics/unauthorized', 'Metrics need the bearer token set in SKILLYARD_METRICS_TOKEN.');
  registerServerMetrics(serverContext);
  const { body, contentType } = await renderMetrics();
  return new Response(body, { headers: { 'Content-Type': contentType, 'Cache-Control': 'no-store' } });
}
