import { NextResponse } from 'next/server';
import { withApi } from '@/lib/api';

export const dynamic = 'force-dynamic';

// liveness: the process answers (restart it when this fails); readiness is /api/health/ready
export const GET = withApi({ rateLimit: false }, async () => NextResponse.json({ live: true }, { headers: { 'Cache-Control': 'no-store' } }));
