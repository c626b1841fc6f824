// Runs before every page (Next.js 16 proxy, formerly middleware): a fresh nonce and the
// Content-Security-Policy that requires it, a request id for the logs (x-request-id, also
// read by lib/api/with-api.ts and server actions), and a 400 for NUL bytes in the path or
// query. API routes do the same checks in withApi and are not matched here.
import { NextResponse, type NextRequest } from 'next/server';
import { contentSecurityPolicy, newNonce } from './lib/api/content-security-policy';

const REQUEST_ID = /^[A-Za-z0-9_-]{8,64}$/;

function hasNul(req: NextRequest): boolean {
  try {
    if (decodeURIComponent(req.nextUrl.pathname).includes('\0')) return true;
  } catch {
    return true;
  }
  for (const [k, v] of req.nextUrl.searchParams) if (k.includes('\0') || v.includes('\0')) return true;
  return false;
}

export function proxy(req: NextRequest) {
  const given = req.headers.get('x-request-id');
  const requestId = given && REQUEST_ID.test(given) ? given : crypto.randomUUID();
  if (hasNul(req)) {
    return NextResponse.json(
      { error: { code: 'input/nul-byte', message: 'The path or query holds a NUL character (%00).' } },
      { status: 400, headers: { 'X-Request-Id': requestId } },
    );
  }
  const nonce = newNonce();
  const csp = contentSecurityPolicy(nonce, { dev: process.env.NODE_ENV === 'development' });
  const headers = new Headers(req.headers);
  headers.set('x-nonce', nonce);
  headers.set('x-request-id', requestId);
  // Next.js reads the nonce for its own scripts from the request's policy header
  headers.set('Content-Security-Policy', csp);
  const res = NextResponse.next({ request: { headers } });
  res.headers.set('Content-Security-Policy', csp);
  res.headers.set('X-Request-Id', requestId);
  return res;
}

export const config = {
  matcher: [
    {
      source: '/((?!api/|_next/static|_next/image|favicon.ico|icon.svg|robots.txt).*)',
      missing: [
        { type: 'header', key: 'next-router-prefetch' },
        { type: 'header', key: 'purpose', value: 'prefetch' },
      ],
    },
  ],
};
