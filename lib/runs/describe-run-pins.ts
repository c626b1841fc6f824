// A run's pins as its page shows them: each pinned version with what happened to it since
// (yanked, and why; the skill's latest version now). The pins themselves never change.
import 'server-only';
import type { Db } from '../db';
import type { PinnedSkill, RunPins } from './run-pins';

export type PinnedSkillNow = PinnedSkill & {
  /** when the pinned version was yanked since the run, and why */
  yankedAt: Date | null;
  yankReason: string | null;
  /** the skill's latest version today, when it is another one */
  latest: string | null;
  /** the pinned version was deleted since (the run's link still shows what it used) */
  deleted: boolean;
};

export async function describeRunPins(db: Db, pins: RunPins): Promise<PinnedSkillNow[]> {
  const rows = await db.skillVersion.findMany({
    where: { id: { in: pins.skills.map((s) => s.versionId) } },
    select: { id: true, yankedAt: true, yankReason: true, skill: { select: { latestVersion: { select: { version: true } } } } },
  });
  const byId = new Map(rows.map((r) => [r.id, r]));
  return pins.skills.map((pin) => {
    const row = byId.get(pin.versionId);
    const latest = row?.skill.latestVersion?.version ?? null;
    return {
      ...pin,
      yankedAt: row?.yankedAt ?? null,
      yankReason: row?.yankReason ?? null,
      latest: latest && latest !== pin.version ? latest : null,
      deleted: !row,
    };
  });
}
