// Every version of a skill, newest first by semver, with yanked/deprecated marks, its
// changelog, publisher, downloads and the dist-tags pointing at it. Listings leave
// yanked versions out unless asked.
import 'server-only';
import semver from 'semver';
import type { Db } from '../db';
import type { Viewer } from './get-skill';
import { findVisibleSkill } from './find-visible-skill';

export type VersionSummary = {
  version: string;
  publishedAt: Date;
  publishedBy: string | null;
  yanked: boolean;
  yankReason: string | null;
  deprecated: string | null;
  changelog: string | null;
  integrity: string | null;
  sizeBytes: number;
  downloads: number;
  tags: string[];
};

export async function listVersions(
  db: Db,
  ref: { scope: string; name: string },
  viewer: Viewer,
  opts: { includeYanked?: boolean } = {},
): Promise<{ versions: VersionSummary[]; distTags: Record<string, string> }> {
  const skill = await findVisibleSkill(db, ref, viewer);
  const rows = await db.skillVersion.findMany({
    where: { skillId: skill.id, ...(opts.includeYanked ? {} : { yankedAt: null }) },
    select: {
      version: true,
      createdAt: true,
      yankedAt: true,
      yankReason: true,
      deprecated: true,
      changelog: true,
      integrity: true,
      sizeBytes: true,
      downloads: true,
      publishedBy: { select: { handle: true } },
      distTags: { select: { tag: true } },
    },
  });
  const tags = await db.distTag.findMany({ where: { skillId: skill.id }, select: { tag: true, version: { select: { version: true } } } });
  const versions = rows
    .map((r) => ({
      version: r.version,
      publishedAt: r.createdAt,
      publishedBy: r.publishedBy?.handle ?? null,
      yanked: r.yankedAt !== null,
      yankReason: r.yankReason,
      deprecated: r.deprecated,
      changelog: r.changelog,
      integrity: r.integrity,
      sizeBytes: r.sizeBytes,
      downloads: r.downloads,
      tags: r.distTags.map((t) => t.tag).sort(),
    }))
    .sort((a, b) => semver.rcompare(a.version, b.version));
  return { versions, distTags: Object.fromEntries(tags.map((t) => [t.tag, t.version.version])) };
}
