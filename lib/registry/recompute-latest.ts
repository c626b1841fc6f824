// After a yank or a deletion took away the `latest` version: `latest` moves to the
// highest remaining stable version (or the highest prerelease when there is no stable
// one); with nothing left the skill leaves listings and search.
import 'server-only';
import semver from 'semver';
import type { Prisma } from '../db';
import { refreshSkillSearch } from './refresh-skill-search';

export async function recomputeLatest(tx: Prisma.TransactionClient, skillId: string): Promise<string | null> {
  const versions = await tx.skillVersion.findMany({ where: { skillId, yankedAt: null }, select: { id: true, version: true } });
  const sorted = versions.map((v) => v.version).sort(semver.rcompare);
  const best = sorted.find((v) => !semver.prerelease(v)) ?? sorted[0] ?? null;
  const row = best ? versions.find((v) => v.version === best)! : null;
  if (row) {
    await tx.distTag.upsert({
      where: { skillId_tag: { skillId, tag: 'latest' } },
      create: { skillId, tag: 'latest', versionId: row.id },
      update: { versionId: row.id },
    });
  } else {
    await tx.distTag.deleteMany({ where: { skillId, tag: 'latest' } });
  }
  await tx.skill.update({ where: { id: skillId }, data: { latestVersionId: row?.id ?? null } });
  await refreshSkillSearch(tx, skillId);
  return best;
}
