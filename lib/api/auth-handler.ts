// The /api/auth/* route handler. next-auth's own `handlers` hand Auth.js a NextRequest, and
// NextURL rewrites a 127.0.0.1 (or [::1]) host to "localhost": a browser on
// http://127.0.0.1:3000 was sent to the provider with redirect_uri 127.0.0.1 (the sign-in
// server action builds it from the Host header), but the callback exchanged the code with
// redirect_uri localhost, and the provider refused it (invalid_grant). This handler does
// what next-auth's does (its env defaults, then Auth.js) with a plain Request on the URL
// the browser used (request-host.ts), so sign-in works on whichever origin the user opened.
// A direct POST /api/auth/signin/<provider> counts against the sign-in rate limits, as
// the sign-in page's server actions do (429 with Retry-After).
import 'server-only';
import { Auth, setEnvDefaults } from '@auth/core';
import { db } from '../db';
import { errorResponse, requestIdFrom } from './with-api';
import { authConfig } from '../session';
import { consumeTeamConnectIntent } from '../teams';
import { requestWithHostUrl, limitSignIn, signInAddress, signInEmailFromBody, SIGN_IN_WINDOW_MS } from '../auth';
import { rateLimitHeaders } from '../limits';
import { isAppError } from '../errors';

const SIGN_IN_POST = /^\/api\/auth\/signin\/[^/]+$/;

export async function handleAuthRequest(req: Request): Promise<Response> {
  // the OAuth callback comes here: a team admin's connect is stored as the team's
  const config = authConfig({ claimConnection: consumeTeamConnectIntent });
  config.basePath = '/api/auth';
  // eslint-disable-next-line no-restricted-properties -- Auth.js reads its AUTH_* defaults from the environment object itself
  setEnvDefaults(process.env, config, true);
  const url = requestWithHostUrl(req.url, req.headers);
  const body = req.method === 'POST' ? await req.arrayBuffer() : undefined;
  if (body && SIGN_IN_POST.test(new URL(url).pathname)) {
    try {
      await limitSignIn(db(), signInAddress(req.headers), signInEmailFromBody(req.headers.get('content-type'), body));
    } catch (err) {
      const d = isAppError(err) ? (err.details as { retryAfterMs?: number; limit?: number } | undefined) : undefined;
      const headers = d?.limit ? rateLimitHeaders({ allowed: false, limit: d.limit, remaining: 0, resetMs: d.retryAfterMs ?? SIGN_IN_WINDOW_MS }, SIGN_IN_WINDOW_MS) : {};
      return errorResponse(err, requestIdFrom(req.headers.get('x-request-id')), 'auth sign-in', headers);
    }
  }
  return Auth(new Request(url, { method: req.method, headers: req.headers, body }), config);
}
