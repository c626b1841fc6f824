// One skill with its versions and the manifest of the requested (or latest) version,
// if the viewer may see it.
import 'server-only';
import type { Db } from '../db';
import type { SkillManifest } from '../skills';
import { AppError } from '../errors';
import semver from 'semver';
import type { ScanFinding } from './scan-package';
import { resolveVersion } from './resolve-version';

export type Viewer = { userId: string } | null;

export type SkillDetail = {
  scope: string;
  name: string;
  description: string;
  format: string;
  visibility: 'public' | 'unlisted' | 'private';
  downloads: number;
  version: string;
  publishedAt: Date;
  yanked: boolean;
  /** why the shown version was yanked, when the owner said */
  yankReason: string | null;
  contentHash: string;
  /** npm-style `sha512-…` of the version's tarball (null for versions stored before tarballs) */
  integrity: string | null;
  deprecated: string | null;
  changelog: string | null;
  /** the publisher's username */
  publishedBy: string | null;
  stars: number;
  distTags: Record<string, string>;
  manifest: SkillManifest;
  /** how many tools the version has (`manifest.tools` may hold only a page of them: `toolsPage`) */
  toolCount: number;
  /** the index of `manifest.tools[0]` among the version's tools (0 unless a page was read) */
  toolsFrom: number;
  findings: ScanFinding[];
  /** every version, newest first, yanked and deprecated ones marked */
  versions: Array<{ version: string; createdAt: Date; yanked: boolean; yankReason: string | null; deprecated: string | null; downloads: number }>;
};

/** Whether `viewer` owns the scope or belongs to its team (who may see its private skills). */
export async function canSeePrivate(db: Db, scope: string, viewer: Viewer): Promise<boolean> {
  if (!viewer) return false;
  const owner = await db.scope.findUnique({
    where: { name: scope },
    select: { userId: true, team: { select: { memberships: { where: { userId: viewer.userId }, select: { role: true } } } } },
  });
  return owner?.userId === viewer.userId || (owner?.team?.memberships.length ?? 0) > 0;
}

export type GetSkillOptions = {
  /**
   * A version with more than `maxTools` tools (stored before the limit held them) is read
   * with only this page of its tools, sliced in Postgres: its page costs what a page of
   * tools costs, not what 13,000 do (issue 23). `offset` past the end reads the last page.
   */
  toolsPage?: { offset: number; limit: number; maxTools: number };
};

export async function getSkill(db: Db, ref: { scope: string; name: string; version?: string }, viewer: Viewer = null, options: GetSkillOptions = {}): Promise<SkillDetail> {
  return (await readSkillDetail(db, ref, viewer, options)).detail;
}

/**
 * getSkill with the row ids of the skill and the shown version, for a caller that reads
 * more of the same version (the skill page: its trust, findings and usage by id, without
 * finding the skill and resolving the version again). The ids stay on the server.
 */
export async function readSkillDetail(
  db: Db,
  ref: { scope: string; name: string; version?: string },
  viewer: Viewer = null,
  options: GetSkillOptions = {},
): Promise<{ detail: SkillDetail; skillId: string; versionId: string }> {
  const notFound = new AppError('skill/not-found', `@${ref.scope}/${ref.name} was not found.`);
  const skill = await db.skill.findUnique({
    where: { scopeName_name: { scopeName: ref.scope, name: ref.name } },
    include: {
      versions: { select: { version: true, createdAt: true, yankedAt: true, yankReason: true, deprecated: true, downloads: true }, orderBy: { createdAt: 'desc' } },
      distTags: { select: { tag: true, version: { select: { version: true } } } },
    },
  });
  if (!skill) throw notFound;
  // a private skill is indistinguishable from a missing one to outsiders
  if (skill.visibility === 'private' && !(await canSeePrivate(db, ref.scope, viewer))) throw notFound;
  // an exact number, a dist-tag or a range; none = latest
  const resolved = ref.version || skill.latestVersionId === null ? await resolveVersion(db, skill, ref.version) : { id: skill.latestVersionId };
  const version = await db.skillVersion.findUnique({
    where: { id: resolved.id },
    include: { publishedBy: { select: { handle: true } } },
    omit: { manifest: options.toolsPage !== undefined },
  });
  if (!version) {
    throw new AppError('skill/version-not-found', `@${ref.scope}/${ref.name}@${ref.version ?? 'latest'} was not found.`);
  }
  const read = options.toolsPage ? await readManifestPage(db, version.id, options.toolsPage) : null;
  const manifest = (read?.manifest ?? (version as { manifest?: unknown }).manifest) as unknown as SkillManifest;
  const byVersion = (a: { version: string }, b: { version: string }) =>
    semver.valid(a.version) && semver.valid(b.version) ? semver.rcompare(a.version, b.version) : b.version.localeCompare(a.version);
  const detail: SkillDetail = {
    scope: skill.scopeName,
    name: skill.name,
    description: skill.description,
    format: skill.format,
    visibility: skill.visibility,
    downloads: skill.downloads,
    version: version.version,
    publishedAt: version.createdAt,
    yanked: version.yankedAt !== null,
    yankReason: version.yankReason,
    contentHash: version.contentHash,
    integrity: version.integrity,
    deprecated: version.deprecated,
    changelog: version.changelog,
    publishedBy: version.publishedBy?.handle ?? null,
    stars: skill.stars,
    distTags: Object.fromEntries(skill.distTags.map((t) => [t.tag, t.version.version])),
    manifest,
    toolCount: read?.toolCount ?? manifest.tools.length,
    toolsFrom: read?.toolsFrom ?? 0,
    findings: version.findings as unknown as ScanFinding[],
    versions: skill.versions
      .map((v) => ({ version: v.version, createdAt: v.createdAt, yanked: v.yankedAt !== null, yankReason: v.yankReason, deprecated: v.deprecated, downloads: v.downloads }))
      .sort(byVersion),
  };
  return { detail, skillId: skill.id, versionId: version.id };
}

/**
 * A version's manifest, whole when it has at most `maxTools` tools, else with only the page
 * of tools from `offset` (clamped to the last page): Postgres slices the array, so the web
 * process never receives or parses the rest.
 */
async function readManifestPage(db: Db, versionId: string, page: { offset: number; limit: number; maxTools: number }) {
  const limit = Math.max(1, Math.floor(page.limit));
  const rows = await db.$queryRaw<Array<{ manifest: unknown; toolCount: number; toolsFrom: number }>>`
    SELECT CASE WHEN x.n <= ${Math.max(0, Math.floor(page.maxTools))}::int THEN x.m
                ELSE jsonb_set(x.m, '{tools}', coalesce(jsonb_path_query_array(x.m -> 'tools', '$[$from to $last]',
                       jsonb_build_object('from', x.start, 'last', x.start + ${limit}::int - 1)), '[]'::jsonb)) END AS manifest,
           x.n AS "toolCount",
           CASE WHEN x.n <= ${Math.max(0, Math.floor(page.maxTools))}::int THEN 0 ELSE x.start END AS "toolsFrom"
    FROM (SELECT y.m, y.n, LEAST(${Math.max(0, Math.floor(page.offset))}::int, GREATEST(0, ((y.n - 1) / ${limit}::int) * ${limit}::int)) AS start
          FROM (SELECT v."manifest"::jsonb AS m,
                       CASE WHEN jsonb_typeof(v."manifest"::jsonb -> 'tools') = 'array' THEN jsonb_array_length(v."manifest"::jsonb -> 'tools') ELSE 0 END AS n
                FROM "SkillVersion" v WHERE v."id" = ${versionId}) y) x`;
  const row = rows[0];
  if (!row) throw new AppError('skill/version-not-found', 'The version was not found.');
  return { manifest: row.manifest, toolCount: Number(row.toolCount), toolsFrom: Number(row.toolsFrom) };
}
