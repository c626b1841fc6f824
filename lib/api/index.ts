// lib/api: the HTTP edge: withApi (errors, who is asking, limits) and the route helpers.
// proxy.ts and instrumentation.ts take content-security-policy.ts and front-door.ts
// directly (the proxy is no Server Components layer; the front door installs itself early).
import 'server-only';
export { withApi } from './with-api';
export { apiActor, teamActor } from './team-actor';
export { runAccessFrom, runCookieName } from './run-access';
export { readBodyBytes } from './read-json-body';
export { openApiDocument } from './openapi';
export { mcpRoute } from './mcp-route';
export { handleAuthRequest } from './auth-handler';
export { actionFailure } from './action-failure';
