// Where a version came from, recorded at publish when a trusted publisher (lib/trusted-publishing)
// published it.
import 'server-only';

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
