// The signed statement about one version (docs/trust.md): what the registry vouches for,
// bound to the exact package bytes. The payload is built here from plain inputs so every
// part that adds to it (the publish-time evidence and provenance of issue 30) adds one
// optional field in one place.
import crypto from 'node:crypto';
import type { PermissionSummary } from './permission-summary';
import { summarizePermissions } from './permission-summary';
import { canonicalJson } from './canonical-json';
import type { SkillManifest } from '../skills';

export const STATEMENT_TYPE = 'https://skillyard.dev/statement/v1';
/** the JWS `typ` header of a statement */
export const STATEMENT_JWS_TYPE = 'skillyard-statement+jwt';

export type ScanVerdict = 'clean' | 'warnings' | 'danger';

export type StatementPayload = {
  _type: typeof STATEMENT_TYPE;
  subject: {
    /** `@scope/name` */
    name: string;
    version: string;
    /** npm-style `sha512-<base64>` of the version's .tar.gz: the bytes `skillyard install` gets */
    packageDigest: string;
    /** `sha256:<hex>` of the canonical JSON (keys sorted) of the stored canonical manifest */
    manifestDigest: string;
  };
  permissions: PermissionSummary;
  scan: { verdict: ScanVerdict; findings: number; rules: string[] };
  /** when the registry signed this statement (ISO 8601) */
  issuedAt: string;
  /** publish-time evidence (tests, builds) the registry checked: issue 30 fills it */
  evidence?: Record<string, unknown>;
  /** where the package came from (trusted publishing: repository, workflow, commit): issue 30 fills it */
  provenance?: Record<string, unknown>;
};

export type StatementInput = {
  scope: string;
  name: string;
  version: string;
  integrity: string;
  manifest: SkillManifest;
  findings: Array<{ rule: string; severity: string }>;
  issuedAt: Date;
  evidence?: Record<string, unknown>;
  provenance?: Record<string, unknown>;
};

export function manifestDigest(manifest: unknown): string {
  return `sha256:${crypto.createHash('sha256').update(canonicalJson(manifest)).digest('hex')}`;
}

export function scanVerdict(findings: Array<{ severity: string }>): ScanVerdict {
  if (findings.some((f) => f.severity === 'danger')) return 'danger';
  if (findings.some((f) => f.severity === 'warning')) return 'warnings';
  return 'clean';
}

/** The one builder of a statement's payload. */
export function buildStatementPayload(input: StatementInput): StatementPayload {
  const payload: StatementPayload = {
    _type: STATEMENT_TYPE,
    subject: {
      name: `@${input.scope}/${input.name}`,
      version: input.version,
      packageDigest: input.integrity,
      manifestDigest: manifestDigest(input.manifest),
    },
    permissions: summarizePermissions(input.manifest),
    scan: { verdict: scanVerdict(input.findings), findings: input.findings.length, rules: [...new Set(input.findings.map((f) => f.rule))].sort() },
    issuedAt: input.issuedAt.toISOString(),
  };
  if (input.evidence) payload.evidence = input.evidence;
  if (input.provenance) payload.provenance = input.provenance;
  return payload;
}

const b64url = (b: Uint8Array | string) => Buffer.from(b).toString('base64url');

/** A compact JWS (EdDSA over Ed25519) of the payload, `kid` naming the key. */
export function signStatement(payload: StatementPayload, key: { kid: string; privateKey: crypto.KeyObject }): string {
  const header = b64url(JSON.stringify({ alg: 'EdDSA', kid: key.kid, typ: STATEMENT_JWS_TYPE }));
  const body = b64url(canonicalJson(payload));
  const sig = crypto.sign(null, Buffer.from(`${header}.${body}`), key.privateKey);
  return `${header}.${body}.${b64url(sig)}`;
}
