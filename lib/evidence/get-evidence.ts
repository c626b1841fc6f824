// A version's evidence and provenance as a viewer may see them (a private skill's are as
// missing as the skill itself to anyone outside its scope).
import 'server-only';
import type { Db } from '../db/client';
import { AppError } from '../errors';
import { findVisibleSkill } from '../registry/find-visible-skill';
import type { Viewer } from '../registry/get-skill';
import { resolveVersion } from '../registry/resolve-version';
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

export async function getVersionTrust(db: Db, ref: { scope: string; name: string; version?: string | null }, viewer: Viewer): Promise<VersionTrust> {
  const skill = await findVisibleSkill(db, ref, viewer);
  const resolved = await resolveVersion(db, skill, ref.version ?? null);
  const row = await db.skillVersion.findUnique({
    where: { id: resolved.id },
    select: { version: true, evidence: true, provenance: true },
  });
  if (!row) throw new AppError('skill/version-not-found', `@${ref.scope}/${ref.name}@${ref.version ?? 'latest'} was not found.`);
  return { scope: skill.scopeName, name: skill.name, version: row.version, ...trustOf(row) };
}

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
