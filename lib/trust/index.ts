// lib/trust: what a skill version may do and what the registry vouches for (docs/trust.md).
// Pure (node:crypto only): the server, the CLI and MCP use the same functions.
export { summarizePermissions, summaryFromLegacy, isPermissionSummary, type PermissionSummary } from './permission-summary';
export { permissionFacts, diffPermissions, diffSentences, type PermissionFact, type PermissionKind, type PermissionDiff } from './permission-diff';
export { canonicalJson } from './canonical-json';
export {
  buildStatementPayload,
  signStatement,
  manifestDigest,
  scanVerdict,
  STATEMENT_TYPE,
  STATEMENT_JWS_TYPE,
  type StatementPayload,
  type StatementInput,
  type ScanVerdict,
} from './statement';
export { isKeySet, type KeySet, type PublicSigningKey, type KeyStatus } from './key-set';
export { verifyStatement, packageDigestOf, readStatementPayload, type VerifyResult, type VerifyFailure } from './verify-statement';
export { toolAnnotationsFor } from './tool-annotations';
