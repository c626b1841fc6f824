// What a version's signed statement (lib/trust) says of its evidence and provenance: a
// summary a reader can check at a glance (outcomes, attempts outside the permissions with
// their lines) and the digest of the full evidence the API serves, so that `skillyard
// verify` can tell the served evidence is the one the registry signed.
import crypto from 'node:crypto';
import { canonicalJson } from '../trust';
import type { Evidence, ExampleOutcome } from './types';
import type { VersionProvenanceView } from './version-trust';

export type StatementEvidence = {
  status: 'done';
  ranAt: string;
  /** `sha256:<hex>` of the canonical JSON of the evidence GET .../evidence serves */
  digest: string;
  outcomes: Record<ExampleOutcome, number>;
  /** attempts outside the declared permissions: what, and the line that made it */
  flagged: Array<{ tool: string; kind: string; target: string; file: string | null; line: number | null }>;
};

export type StatementProvenance = { issuer: string; repository: string; commit: string; workflow: string; ref: string | null; sourceUrl: string | null };

export function evidenceDigest(evidence: Evidence): string {
  return `sha256:${crypto.createHash('sha256').update(canonicalJson(evidence)).digest('hex')}`;
}

export function statementEvidence(evidence: Evidence): StatementEvidence {
  const outcomes: Record<ExampleOutcome, number> = { passed: 0, failed: 0, ran: 0, error: 0, stopped: 0 };
  const flagged: StatementEvidence['flagged'] = [];
  for (const t of evidence.tools) {
    for (const e of t.examples) {
      outcomes[e.outcome]++;
      for (const a of e.attempts) {
        if (!a.declared) flagged.push({ tool: t.tool, kind: a.kind, target: a.target, file: a.where?.file ?? null, line: a.where?.line ?? null });
      }
    }
  }
  return { status: 'done', ranAt: evidence.ranAt, digest: evidenceDigest(evidence), outcomes, flagged: flagged.slice(0, 50) };
}

export function statementProvenance(p: VersionProvenanceView): StatementProvenance {
  return { issuer: p.issuer, repository: p.repository, commit: p.commit, workflow: p.workflow, ref: p.ref, sourceUrl: p.sourceUrl };
}

export type TrustCheck = { ok: boolean; lines: string[]; /** the lines that failed */ failures: string[] };

/**
 * What `skillyard verify` checks beyond the signature: the evidence the registry serves is
 * the one the statement signed (same digest), and a provenance asked for (`--repository`,
 * `--workflow`) is the signed one.
 */
export function checkStatementParts(
  payload: { evidence?: Record<string, unknown>; provenance?: Record<string, unknown> },
  given: { evidence?: Evidence | null; repository?: string; workflow?: string },
): TrustCheck {
  const lines: string[] = [];
  const failures: string[] = [];
  let ok = true;
  const ev = payload.evidence as StatementEvidence | undefined;
  if (ev?.status === 'done') {
    const o = ev.outcomes;
    lines.push(
      `evidence: ${o.passed} passed, ${o.failed} failed, ${o.ran} ran, ${o.error} errors, ${o.stopped} stopped; ${ev.flagged.length} attempt${ev.flagged.length === 1 ? '' : 's'} outside the permissions`,
    );
    for (const f of ev.flagged.slice(0, 10)) lines.push(`  flagged: ${f.tool} ${f.kind} ${f.target}${f.file ? ` at ${f.file}:${f.line}` : ''}`);
    if (given.evidence) {
      const digest = evidenceDigest(given.evidence);
      if (digest === ev.digest) lines.push('evidence: the served evidence is the signed one');
      else {
        ok = false;
        failures.push(`evidence: the served evidence (${digest.slice(0, 19)}…) is not the signed one (${ev.digest.slice(0, 19)}…)`);
        lines.push(failures[failures.length - 1]);
      }
    }
  } else lines.push('evidence: none signed (the publish-time run had not finished when this statement was signed, or runs are off)');
  const prov = payload.provenance as StatementProvenance | undefined;
  if (prov) lines.push(`provenance: ${prov.repository}@${prov.commit.slice(0, 12)} by ${prov.workflow} (${prov.issuer})`);
  else lines.push('provenance: none (not published by a trusted publisher)');
  for (const [want, got, what] of [
    [given.repository, prov?.repository, 'repository'],
    [given.workflow, prov?.workflow, 'workflow'],
  ] as const) {
    if (!want) continue;
    if (got === want) lines.push(`provenance: ${what} is ${want}`);
    else {
      ok = false;
      failures.push(`provenance: ${what} is ${got ?? '(none)'}, not ${want}`);
      lines.push(failures[failures.length - 1]);
    }
  }
  return { ok, lines, failures };
}
