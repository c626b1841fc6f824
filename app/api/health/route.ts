import { NextResponse } from 'next/server';
import { db } from '@/lib/db/client';
import { checkDatabaseHealth } from '@/lib/db/check-health';

export const dynamic = 'force-dynamic';

export async function GET() {
  const database = await checkDatabaseHealth(db());
  return NextResponse.json(
    { status: database.ok ? 'ok' : 'degraded', database },
    { status: database.ok ? 200 : 503, headers: { 'Cache-Control': 'no-store' } },
  );
}
