// Trusted publishing: a CI job's OIDC token, checked against a skill's configured
// publisher, buys a short-lived API token that publishes that one skill; each version it
// publishes records where it came from.

/** What a version records of the CI that published it (the verified claims of its token). */
export type VersionProvenanceInput = {
  issuer: string;
  repository: string;
  commit: string;
  workflow: string;
  ref: string | null;
  /** a link to the source commit (for an issuer whose URLs are known) */
  sourceUrl: string | null;
  runUrl: string | null;
  /** the token's claims that were checked and recorded */
  claims: Record<string, string>;
};

/** A trusted publisher as the owner configures it: issuer and the claims that must match exactly. */
export type TrustedPublisherConfig = { issuer: string; claims: Record<string, string> };
