// A version's evidence and provenance as the registry shows them (read for a viewer by
// lib/registry/get-version-trust.ts), from the stored rows.
import type { Evidence } from './types';

export type VersionProvenanceView = {
  issuer: string;
  repository: string;
  commit: string;
  workflow: string;
  ref: string | null;
  sourceUrl: string | null;
  runUrl: string | null;
};

export type VersionTrust = {
  scope: string;
  name: string;
  version: string;
  evidence: {
    /** none: published with publish-time runs off (or before they existed) */
    status: 'none' | 'queued' | 'running' | 'done' | 'failed';
    queuedAt: string | null;
    finishedAt: string | null;
    error: string | null;
    result: Evidence | null;
  };
  provenance: VersionProvenanceView | null;
};

type StoredTrust = {
  evidence: { status: string; queuedAt: Date; finishedAt: Date | null; error: string | null; evidence: unknown } | null;
  provenance: { issuer: string; repository: string; commit: string; workflow: string; ref: string | null; sourceUrl: string | null; runUrl: string | null } | null;
};

export function trustOf(row: StoredTrust): Pick<VersionTrust, 'evidence' | 'provenance'> {
  const e = row.evidence;
  const p = row.provenance;
  return {
    evidence: e
      ? {
          status: e.status as VersionTrust['evidence']['status'],
          queuedAt: e.queuedAt.toISOString(),
          finishedAt: e.finishedAt?.toISOString() ?? null,
          error: e.error,
          result: e.status === 'done' ? (e.evidence as Evidence) : null,
        }
      : { status: 'none', queuedAt: null, finishedAt: null, error: null, result: null },
    provenance: p ? { issuer: p.issuer, repository: p.repository, commit: p.commit, workflow: p.workflow, ref: p.ref, sourceUrl: p.sourceUrl, runUrl: p.runUrl } : null,
  };
}
