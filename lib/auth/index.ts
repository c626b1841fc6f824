// lib/auth: who signs in and how (the next-auth adapter and providers, sessions, API
// tokens, device login for the CLI), their OAuth connections and model keys, and the token
// vault's sealing. The next-auth instance itself is lib/session's: next-auth loads only
// inside Next.js, and the worker, scripts and benches load this library too.
import 'server-only';
export { skillyardAdapter } from './auth-adapter';
export { authProviders } from './auth-providers';
export { API_TOKEN_SCOPES, TEAM_API_TOKEN_SCOPES, createApiToken, authenticateApiToken, type ApiTokenScope, type ApiPrincipal } from './api-tokens';
export { hearApiTokenChanges, forgetApiTokenId } from './api-token-cache';
export { listApiTokens, issueApiToken, revokeApiToken, type ApiTokenRow } from './manage-api-tokens';
export { describeTokenOwner } from './token-owner';
export { DEVICE_POLL_INTERVAL_S, normalizeUserCode, startDeviceLogin, approveDeviceLogin, denyDeviceLogin, pollDeviceLogin, type DevicePoll } from './device-login';
export { limitSignIn, signInAddress, signInEmailFromBody, SIGN_IN_WINDOW_MS } from './sign-in-limit';
export { emailDelivery } from './email-sign-in';
export { endAllSessions } from './sessions';
export { cachedSessionUser, sessionTokenFrom, sessionUserFromRequest, verifiedSessionUser } from './session-from-request';
export { assertSameOrigin } from './same-origin';
export { isSameOrigin } from './same-origin-check';
export { safeLocalPath, safeRedirect, sameHostPath } from './safe-redirect';
export { requestWithHostUrl } from './request-host';
export { providersFromEnv, scopesToRequest, type ProviderSpec } from './provider-config';
export {
  oauthIssuer,
  claimsFromScope,
  storeConnectionTokens,
  listConnections,
  disconnect,
  refreshExpiredConnections,
  type ProviderTokens,
  type Connection,
} from './oauth-connections';
export { MODEL_KEY_PROVIDERS, listModelKeys, setModelKey, deleteModelKey, userModelKey, type ModelKeyProvider, type ModelKeyRow } from './model-keys';
export { assertModelAccess, providersFor } from './model-access';
export { deleteAccount } from './delete-account';
export { chooseUsername, suggestUsername } from './usernames';
export { findLookalikeScope } from './find-lookalike-scope';
export { RESERVED_SCOPE_NAMES, reservedScopeName, lookalikeMessage } from './scope-names';
export { sealSecret, openSecret, deriveKey } from './secret-box';
