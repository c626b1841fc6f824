// The skill page's trust sections for the shown version (docs/trust.md): its permissions
// and their diff from another version, then its scan findings with reviews. Loaded here so
// the page itself only places them.
import semver from 'semver';
import { serverContext } from '@/lib/server';
import { type SkillDetail, diffVersionPermissions, type VersionPermissionDiff, explainFindings } from '@/lib/registry';
import { permissionFacts, summarizePermissions } from '@/lib/trust';
import { PermissionsPanel } from './permissions-panel';
import { FindingsPanel } from './findings-panel';

/** `versionId`: the shown version's row (the page found it and checked the viewer may see it) */
type Props = { skill: SkillDetail; versionId: string; userId: string | null; manage: boolean; from?: string; versionParam: string | null; base: string };

/** The version a diff starts from: the one asked for, else the newest one older than the shown one (not yanked). */
function fromVersion(skill: SkillDetail, asked?: string): string | null {
  const others = skill.versions.filter((v) => v.version !== skill.version);
  if (asked && others.some((v) => v.version === asked)) return asked;
  const older = others.filter((v) => !v.yanked && semver.valid(v.version) && semver.valid(skill.version) && semver.lt(v.version, skill.version));
  return older[0]?.version ?? null;
}

export async function TrustSections({ skill, versionId, userId, manage, from, versionParam, base }: Props) {
  const db = serverContext().db;
  const viewer = userId ? { userId } : null;
  const ref = { scope: skill.scope, name: skill.name };
  const start = fromVersion(skill, from);
  let diff: VersionPermissionDiff | null = null;
  if (start) diff = await diffVersionPermissions(db, { ...ref, from: start, to: skill.version }, viewer).catch(() => null);
  // the findings came with the version; their reviews are read only when there are findings
  const findings = await explainFindings(db, versionId, Array.isArray(skill.findings) ? skill.findings : []);
  return (
    <>
      <PermissionsPanel
        ref_={`@${skill.scope}/${skill.name}`}
        version={skill.version}
        facts={permissionFacts(summarizePermissions(skill.manifest))}
        diff={diff}
        others={skill.versions.map((v) => v.version).filter((v) => v !== skill.version)}
        base={base}
        versionParam={versionParam}
      />
      <FindingsPanel scope={skill.scope} name={skill.name} version={skill.version} findings={findings} manage={manage} />
    </>
  );
}
