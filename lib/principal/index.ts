// lib/principal: who is asking (one type), the address they ask from, and the one string
// key of either. Derived from a request in one place: lib/api/identify-caller.ts.
export { addressBucket } from './address-bucket';
export { clientAddressOf, clientIp } from './client-address';
export {
  ANONYMOUS,
  TRUSTED_PUBLISH_SCOPE,
  isTrustedPublishToken,
  accountOf,
  requireScope,
  requireUser,
  tokenIdOf,
  userIdOf,
  userPrincipal,
  visitorIdOf,
  type Principal,
} from './principal';
export { ANONYMOUS_KEY_PREFIX, accountKey, anonymousKey, isAnonymousKey, principalKey, rateKeyOf, userKey } from './principal-key';
