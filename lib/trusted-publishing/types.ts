// Trusted publishing: a CI job's OIDC token, checked against a skill's configured
// publisher, buys a short-lived API token that publishes that one skill; each version it
// publishes records where it came from.

// what a version records of the CI that published it: the registry stores it at publish
export type { VersionProvenanceInput } from '../registry';

/** A trusted publisher as the owner configures it: issuer and the claims that must match exactly. */
export type TrustedPublisherConfig = { issuer: string; claims: Record<string, string> };
