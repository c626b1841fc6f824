import { NextResponse } from 'next/server';
import { checkServerHealth, healthStatusCode, serverContext } from '@/lib/server';

export const dynamic = 'force-dynamic';

export async function GET() {
  const health = await checkServerHealth(serverContext());
  return NextResponse.json(health, { status: healthStatusCode(health), headers: { 'Cache-Control': 'no-store' } });
}
