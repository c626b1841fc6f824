// Where a version came from, recorded at publish when a trusted publisher (lib/trusted-publishing)
// published it.
import 'server-only';
import type { VersionProvenanceView } from '../evidence';

/**
 * What a version records of the CI that published it (the verified claims of its token): what
 * the registry shows of it (issuer, repository, commit, workflow, ref, links), and the token's
 * claims that were checked and recorded.
 */
export type VersionProvenanceInput = VersionProvenanceView & { claims: Record<string, string> };
