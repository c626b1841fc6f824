// Publish-time evidence: what a version's code did when the registry ran its examples.
export type * from './types';
export { runEvidence, evidenceLimits, sameJson, type EvidenceLimits } from './run-evidence';
export { exampleCallsFor } from './example-calls';
export { queueEvidence } from './evidence-queue';
export { startEvidenceWorker, wakeEvidenceWorkers, type EvidenceWorker } from './evidence-worker';
export { trustOf, type VersionTrust, type VersionProvenanceView } from './version-trust';
export { statementEvidence, statementProvenance, evidenceDigest, checkStatementParts, type StatementEvidence, type StatementProvenance, type TrustCheck } from './statement-parts';
