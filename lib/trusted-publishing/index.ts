// Trusted publishing: CI publishes a skill with its OIDC token, no long-lived secret.
export type * from './types';
export { oidcSettings, GITHUB_ACTIONS_ISSUER, type OidcSettings } from './oidc-settings';
export { exchangeCiToken, type ExchangeResult } from './exchange-ci-token';
export { publishGrantOf, assertGrantCovers, type PublishGrant } from './publish-grant';
export { provenanceFromClaims } from './provenance-from-claims';
export {
  listTrustedPublishers,
  addTrustedPublisher,
  removeTrustedPublisher,
  ZTrustedPublisherInput,
  type TTrustedPublisherInput,
  type TrustedPublisherView,
} from './trusted-publishers';
