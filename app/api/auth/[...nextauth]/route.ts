import { NextRequest } from 'next/server';
import { handlers } from '@/lib/auth/auth';
import { requestWithHostUrl } from '@/lib/auth/request-host';

export const dynamic = 'force-dynamic';

// The production server hands route handlers a URL on its own bind host (localhost); the
// OAuth redirect_uri must be the one the browser used (the sign-in action built it from
// the Host header), or the provider refuses the code exchange.
export const GET = (req: NextRequest) => handlers.GET(new NextRequest(requestWithHostUrl(req.url, req.headers), req));
export const POST = (req: NextRequest) => handlers.POST(new NextRequest(requestWithHostUrl(req.url, req.headers), req));
