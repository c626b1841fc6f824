// A version's provenance from the verified claims of the CI token that published it.
// GitHub Actions' claims (repository, workflow_ref, sha, ref, run_id) and GitLab's
// (project_path, ci_config_ref_uri, sha, ref, pipeline_id) are read; the source link is
// made only for an issuer whose URLs are known.
import type { JWTPayload } from 'jose';
import { GITLAB_ISSUER, type OidcSettings } from './oidc-settings';
import type { VersionProvenanceInput } from './types';

const RECORDED = [
  'repository',
  'repository_owner',
  'workflow_ref',
  'job_workflow_ref',
  'sha',
  'ref',
  'run_id',
  'run_attempt',
  'event_name',
  'environment',
  'project_path',
  'ci_config_ref_uri',
  'pipeline_id',
  'sub',
];

const str = (v: unknown) => (typeof v === 'string' && v.length <= 500 ? v : typeof v === 'number' ? String(v) : null);

export function provenanceFromClaims(issuer: string, claims: JWTPayload, settings: OidcSettings): VersionProvenanceInput {
  const repository = str(claims.repository) ?? str(claims.project_path) ?? '';
  const commit = str(claims.sha) ?? '';
  const workflow = str(claims.workflow_ref) ?? str(claims.job_workflow_ref) ?? str(claims.ci_config_ref_uri) ?? str(claims.workflow) ?? '';
  const recorded = Object.fromEntries(RECORDED.map((k) => [k, str(claims[k])]).filter((e): e is [string, string] => e[1] !== null));
  let sourceUrl: string | null = null;
  let runUrl: string | null = null;
  const safe = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_./-]+$/.test(repository) && /^[0-9a-f]{7,64}$/i.test(commit);
  if (safe && settings.githubIssuers.includes(issuer)) {
    sourceUrl = `https://github.com/${repository}/commit/${commit}`;
    if (/^[0-9]+$/.test(recorded.run_id ?? '')) runUrl = `https://github.com/${repository}/actions/runs/${recorded.run_id}`;
  } else if (safe && issuer === GITLAB_ISSUER) {
    sourceUrl = `https://gitlab.com/${repository}/-/commit/${commit}`;
    if (/^[0-9]+$/.test(recorded.pipeline_id ?? '')) runUrl = `https://gitlab.com/${repository}/-/pipelines/${recorded.pipeline_id}`;
  }
  return { issuer, repository, commit, workflow, ref: str(claims.ref), sourceUrl, runUrl, claims: recorded };
}
